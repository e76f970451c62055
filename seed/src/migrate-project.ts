import { type EmulatorHosts, readEmulatorHosts } from './env.ts'
import { assertBackendHasRoom } from './lib/backend-full.ts'
import { connectFirebase, type FirebaseClients } from './lib/firebase.ts'
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

/** The backend the migrations run against: reachable, with room to write (ADR 0018), connected. */
async function openBackend(options: MigrateOptions): Promise<FirebaseClients> {
  const emulators = options.emulators ?? readEmulatorHosts()
  await assertEmulatorsReachable(emulators)
  await assertBackendHasRoom(emulators.firestore)
  return connectFirebase({ ...options, emulators })
}

/** Runs every migration against a project, one progress line each, and a total. */
export async function migrate(options: MigrateOptions): Promise<(MigrationResult & { id: string })[]> {
  const started = Date.now()
  const log = options.log ?? (() => {})
  const clients = await openBackend(options)
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

/** Where a project records the migrations applied to it (and whether it is a pilot). */
export const SCHEMA_DOCUMENT = 'bosted/schema'

/** A project's data is newer than this version: it refuses to touch it. */
export class NewerDataError extends Error {}

/**
 * Runs, once, the migrations a project has not had yet (`bosted/schema` lists those it had), each
 * recorded as soon as it succeeded; refuses data that a newer version migrated (a migration id this
 * version does not know) before changing anything. With `pilot`, the project is marked as a pilot
 * (the demo seed then refuses it).
 */
export async function migratePending(
  options: MigrateOptions & { pilot?: boolean },
): Promise<{ applied: string[]; pending: string[] }> {
  const started = Date.now()
  const log = options.log ?? (() => {})
  const clients = await openBackend(options)
  const migrations = options.migrations ?? MIGRATIONS
  const known = new Set(migrations.map((migration) => migration.id))
  try {
    const ref = clients.db.doc(SCHEMA_DOCUMENT)
    const snapshot = await ref.get()
    const applied: string[] = Array.isArray(snapshot.get('applied')) ? snapshot.get('applied') : []
    const unknown = applied.filter((id) => !known.has(id))
    if (unknown.length > 0) {
      throw new NewerDataError(
        `this data was migrated by a newer Bosted (migrations ${unknown.join(', ')} are unknown to this version, which knows ${[...known].join(', ')}); run that version or a newer one. Nothing was changed.`,
      )
    }
    if (options.pilot && snapshot.get('pilot') !== true) await ref.set({ pilot: true }, { merge: true })
    const pending = migrations.filter((migration) => !applied.includes(migration.id))
    if (pending.length === 0) {
      log(`migrate: schema up to date (${applied.length} migrations applied); nothing to do`)
      return { applied, pending: [] }
    }
    log(`migrate: ${pending.length} pending: ${pending.map((migration) => migration.id).join(', ')}`)
    const now = options.now ?? new Date()
    for (const migration of pending) {
      const migrationStarted = Date.now()
      const result = await migration.run(clients.db, now)
      applied.push(migration.id)
      await ref.set({ applied, updatedAt: new Date().toISOString() }, { merge: true })
      const detail = result.detail ? ` ${result.detail}` : ''
      log(
        `migrate: ${migration.id}: ${result.scanned} scanned${detail}, ${result.updated} updated in ${Date.now() - migrationStarted} ms (recorded)`,
      )
    }
    log(`migrate: done: ${pending.length} applied in ${Date.now() - started} ms`)
    return { applied, pending: pending.map((migration) => migration.id) }
  } finally {
    await clients.close()
  }
}

/** Whether a project is a pilot (marked by `migratePending({ pilot: true })`). */
export async function isPilot(db: FirebaseClients['db']): Promise<boolean> {
  return (await db.doc(SCHEMA_DOCUMENT).get()).get('pilot') === true
}
