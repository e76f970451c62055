import { type EmulatorHosts, readEmulatorHosts } from './env.ts'
import { assertBackendHasRoom } from './lib/backend-full.ts'
import { connectFirebase } from './lib/firebase.ts'
import { assertEmulatorsReachable } from './lib/reachable.ts'
import { MIGRATIONS } from './migrations/index.ts'
import type { Migration, MigrationResult } from './migrations/migration.ts'

export type MigrateOptions = {
  projectId: string
  bucket: string
  emulators?: EmulatorHosts
  now?: Date
  migrations?: readonly Migration[]
  log?: (line: string) => void
}

/** Runs every migration against a project, one progress line each, and a total. */
export async function migrate(options: MigrateOptions): Promise<(MigrationResult & { id: string })[]> {
  const started = Date.now()
  const log = options.log ?? (() => {})
  const emulators = options.emulators ?? readEmulatorHosts()
  await assertEmulatorsReachable(emulators)
  await assertBackendHasRoom(emulators.firestore)
  const clients = connectFirebase({ ...options, emulators })
  const now = options.now ?? new Date()
  try {
    const results: (MigrationResult & { id: string })[] = []
    for (const migration of options.migrations ?? MIGRATIONS) {
      const migrationStarted = Date.now()
      const result = await migration.run(clients.db, now)
      results.push({ id: migration.id, ...result })
      const detail = result.detail ? ` ${result.detail}` : ''
      log(
        `migrate: ${migration.id}: ${result.scanned} scanned${detail}, ${result.updated} updated in ${Date.now() - migrationStarted} ms`,
      )
    }
    const updated = results.reduce((sum, result) => sum + result.updated, 0)
    log(`migrate: done: ${results.length} migrations, ${updated} documents updated in ${Date.now() - started} ms`)
    return results
  } finally {
    await clients.close()
  }
}
