import { existsSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { createAccessLogTable, LEGACY_LOG_FILE, STORE_FILE } from './access-log.ts'

type LegacyRow = {
  seq: number
  project: string
  person_id: string
  time_ms: number
  principal_uid: string | null
  operation: string
  record: string
  prev_hash: string
  hash: string
}

/** The name the old file is kept under: `access-log.sqlite.migrated` (or `.migrated-2`, … if taken). */
function keptName(file: string): string {
  let name = `${file}.migrated`
  for (let n = 2; existsSync(name); n++) name = `${file}.migrated-${n}`
  return name
}

/**
 * Moves an access log kept in its own file (`<dataDir>/access-log.sqlite`, before ADR 0017) into
 * the store's database, once, at start: every entry verbatim (seq, record, hashes), in one
 * transaction, so the chain goes on where it ended. The old file is kept renamed
 * (`access-log.sqlite.migrated`), and one line says so. A crash between the copy and the rename is
 * safe: the next start finds the old chain's last entry already in the store and only renames.
 * Refuses (throws) when the store already holds a different chain. Returns the entries moved, or
 * null when there was nothing to move.
 */
export function migrateLegacyAccessLog(
  db: Database.Database,
  dataDir: string,
  say: (line: string) => void = console.log,
): number | null {
  const file = join(dataDir, LEGACY_LOG_FILE)
  if (!existsSync(file)) return null
  // Opened read-write: closing it checkpoints its WAL into the file, so nothing is left beside it.
  const legacy = new Database(file)
  let moved = 0
  let already = false
  try {
    const hasTable = legacy.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'access_log'").get()
    const last = hasTable
      ? legacy
          .prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM access_log ORDER BY seq DESC LIMIT 1')
          .get()
      : undefined
    createAccessLogTable(db)
    if (last !== undefined) {
      db.transaction(() => {
        const found = db
          .prepare<[number, string], { seq: number }>('SELECT seq FROM access_log WHERE seq = ? AND hash = ?')
          .get(last.seq, last.hash)
        if (found) {
          already = true
          return
        }
        if (db.prepare('SELECT 1 FROM access_log LIMIT 1').get())
          throw new Error(
            `emulator-lite: ${file} holds an access log, and the store's database holds a different one; move one of them away (nothing was changed)`,
          )
        const insert = db.prepare(
          `INSERT INTO access_log (seq, project, person_id, time_ms, principal_uid, operation, record, prev_hash, hash)
           VALUES (@seq, @project, @person_id, @time_ms, @principal_uid, @operation, @record, @prev_hash, @hash)`,
        )
        for (const row of legacy.prepare<[], LegacyRow>('SELECT * FROM access_log ORDER BY seq').iterate()) {
          insert.run(row)
          moved += 1
        }
      })()
    }
  } finally {
    legacy.close()
  }
  const kept = keptName(file)
  renameSync(file, kept)
  for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, kept + suffix)
  say(
    already
      ? `emulator-lite: the access log of ${file} was already in the store's database ${join(dataDir, STORE_FILE)}; the old file is kept as ${kept}`
      : `emulator-lite: moved the access log (${moved} entries) from ${file} into the store's database ${join(dataDir, STORE_FILE)}; the old file is kept as ${kept}`,
  )
  return moved
}
