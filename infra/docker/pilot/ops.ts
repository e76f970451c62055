// The pilot's backups (docker-compose.pilot.yml, service `ops`; docs/pilot.md):
//   node ops.ts backup               an online, consistent backup of DATA_DIR into BACKUP_DIR (one archive)
//   node ops.ts verify FILE          checks an archive (complete, every part's SHA-256, schema) and changes nothing
//   node ops.ts restore FILE         verify, then replace DATA_DIR's contents (the backend must be stopped)
//   node ops.ts digest [DIR]         rows per table and a SHA-256 of every table's rows (tests compare states)
//   node ops.ts daemon               a backup every day at PILOT_BACKUP_TIME (UTC), keeping PILOT_BACKUP_KEEP
//   node ops.ts health               the daemon is alive (its heartbeat is fresh)
//
// Every SQLite file in the data directory (whatever its name: documents, accounts, objects and the
// access log, in one file or several) is copied with SQLite's online backup API while the backend
// keeps writing, so each copy is one consistent state; every other file (the admin secret, the
// signing keys, the service account) is copied as it is. The archive is a gzip'd tar of those parts
// and a manifest: format, time, the data schema (the migrations applied), counts, SHA-256 and size
// of each part.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'

type Db = InstanceType<typeof Database>
type Env = Record<string, string | undefined>
export type Counts = { documents: number; objects: number; accounts: number; accessLog: number }
export type Part = {
  path: string
  kind: 'sqlite' | 'file'
  tables?: Record<string, number>
  bytes?: number
  sha256?: string
}
export type Manifest = {
  format: string
  createdAt: string
  schema: { migrations: string[] }
  counts: Counts
  parts: Part[]
}
export type BackupResult = { archive: string; manifest: Manifest; bytes: number; ms: number }

export const FORMAT = 'bosted-pilot-backup/1'
const here = dirname(fileURLToPath(import.meta.url))
const MIGRATIONS_DIR = process.env.MIGRATIONS_DIR || resolve(here, '../../../seed/src/migrations')
const SCHEMA_DOCUMENT = 'bosted/schema'
const HEARTBEAT = '/tmp/bosted-ops-heartbeat'

const isSqlite = (name: string) => name.endsWith('.sqlite')
const isSidecar = (name: string) => /\.sqlite-(wal|shm|journal)$/.test(name)
const sha256File = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

/**
 * What a backup leaves out: a restore's set-aside data, emulator-lite's disk reserve (16 MiB it
 * writes again at start, ADR 0018) and uploads in progress (emptied at start, ADR 0021).
 */
const notBackedUp = (path: string) =>
  path.startsWith('before-restore') || /(^|\/)disk-reserve$/.test(path) || /(^|\/)upload-spool(\/|$)/.test(path)

/** Every file under dir (relative paths), sorted; SQLite's -wal/-shm/-journal left out. */
function filesUnder(dir: string, skip: (path: string) => boolean = () => false): string[] {
  const out: string[] = []
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name)
      const rel = relative(dir, path)
      if (skip(rel)) continue
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile() && !isSidecar(entry.name)) out.push(rel)
    }
  }
  if (existsSync(dir)) walk(dir)
  return out.sort()
}

/** The migration ids this version knows (seed/src/migrations/NNN-name.ts). */
export function knownMigrations(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => /^\d{3}-[\w-]+\.ts$/.test(name) && !name.endsWith('.test.ts'))
    .map((name) => name.replace(/\.ts$/, ''))
    .sort()
}

/** Rows per table of one SQLite file. */
function tableCounts(db: Db): Record<string, number> {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((row) => (row as { name: string }).name)
  return Object.fromEntries(
    tables.map((name) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]),
  )
}

/** The migrations a data directory's documents record as applied (`bosted/schema`), from any SQLite file. */
function appliedMigrations(dbs: Db[]): string[] {
  for (const db of dbs) {
    const hasDocuments = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'documents'").get()
    if (!hasDocuments) continue
    const row = db.prepare('SELECT fields FROM documents WHERE path = ? LIMIT 1').get(SCHEMA_DOCUMENT) as
      | { fields: string }
      | undefined
    if (!row) return []
    const values: { stringValue?: unknown }[] = JSON.parse(row.fields)?.applied?.arrayValue?.values ?? []
    return values.map((value) => value.stringValue).filter((id): id is string => typeof id === 'string')
  }
  return []
}

/** Totals people recognise, from the per-table counts of every part. */
function summarise(parts: Part[]): Counts {
  const sum = (table: string) => parts.reduce((total, part) => total + (part.tables?.[table] ?? 0), 0)
  return {
    documents: sum('documents'),
    objects: sum('objects'),
    accounts: sum('auth_users'),
    accessLog: sum('access_log'),
  }
}

function stamp(date = new Date()) {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
}

function tar(args: string[], what: string): void {
  const result = spawnSync('tar', args, { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`${what}: ${(result.stderr || result.error?.message || '').trim()}`)
}

/**
 * An online backup of dataDir into backupDir/bosted-backup-<time>.tar.gz; returns the archive and its
 * manifest. Safe while the backend writes: SQLite's backup API copies one consistent state per file.
 */
export async function backup({
  dataDir,
  backupDir,
  now = new Date(),
}: {
  dataDir: string
  backupDir: string
  now?: Date
}): Promise<BackupResult> {
  const started = Date.now()
  mkdirSync(backupDir, { recursive: true })
  const name = `bosted-backup-${stamp(now)}`
  const staging = join(backupDir, `.${name}.partial`)
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(join(staging, 'data'), { recursive: true })
  const parts: Part[] = []
  const opened: Db[] = []
  try {
    for (const rel of filesUnder(dataDir, notBackedUp)) {
      const source = join(dataDir, rel)
      const target = join(staging, 'data', rel)
      mkdirSync(dirname(target), { recursive: true })
      if (isSqlite(rel)) {
        const db = new Database(source, { fileMustExist: true, timeout: 30_000 })
        await db.backup(target)
        db.close()
        // The copy leaves WAL mode: one self-contained file (emulator-lite turns WAL on again when it opens it).
        const copy = new Database(target)
        copy.pragma('journal_mode = DELETE')
        opened.push(copy)
        parts.push({ path: rel, kind: 'sqlite', tables: tableCounts(copy) })
      } else {
        copyFileSync(source, target)
        parts.push({ path: rel, kind: 'file' })
      }
    }
    const migrations = appliedMigrations(opened)
    for (const db of opened) db.close()
    opened.length = 0
    for (const part of parts) {
      const file = join(staging, 'data', part.path)
      part.bytes = statSync(file).size
      part.sha256 = sha256File(file)
    }
    const manifest: Manifest = {
      format: FORMAT,
      createdAt: now.toISOString(),
      schema: { migrations },
      counts: summarise(parts),
      parts,
    }
    writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    const archive = join(backupDir, `${name}.tar.gz`)
    const partial = `${archive}.partial`
    tar(['-czf', partial, '-C', staging, 'manifest.json', 'data'], 'tar could not write the archive')
    renameSync(partial, archive)
    return { archive, manifest, bytes: statSync(archive).size, ms: Date.now() - started }
  } finally {
    for (const db of opened) db.close()
    rmSync(staging, { recursive: true, force: true })
  }
}

/**
 * Unpacks and checks an archive in a fresh directory under workDir; throws a message for people when
 * it is damaged, incomplete or from a newer schema. Returns the directory and the manifest.
 */
export function verify(
  file: string,
  { workDir, known = knownMigrations() }: { workDir: string; known?: string[] },
): { dir: string; manifest: Manifest } {
  if (!existsSync(file)) throw new Error(`${file}: no such file`)
  const dir = join(workDir, `.verify-${process.pid}-${Date.now()}`)
  mkdirSync(dir, { recursive: true })
  try {
    try {
      tar(['-xzf', file, '-C', dir], 'extract')
    } catch (error) {
      throw new Error(
        `${basename(file)} is damaged or incomplete (${(error as Error).message.split('\n')[0]}); nothing was changed`,
      )
    }
    const manifestFile = join(dir, 'manifest.json')
    if (!existsSync(manifestFile)) throw new Error(`${basename(file)} has no manifest.json: not a Bosted pilot backup`)
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest
    if (manifest.format !== FORMAT) throw new Error(`${basename(file)}: unknown backup format ${manifest.format}`)
    for (const part of manifest.parts) {
      const path = join(dir, 'data', part.path)
      if (!existsSync(path)) throw new Error(`${basename(file)} lacks ${part.path}; nothing was changed`)
      const digest = sha256File(path)
      if (digest !== part.sha256 || statSync(path).size !== part.bytes)
        throw new Error(
          `${basename(file)}: ${part.path} does not match its SHA-256 in the manifest; nothing was changed`,
        )
      if (part.kind === 'sqlite') {
        const db = new Database(path, { readonly: true })
        const check = db.pragma('integrity_check', { simple: true })
        db.close()
        if (check !== 'ok') throw new Error(`${basename(file)}: ${part.path} fails SQLite's integrity check (${check})`)
      }
    }
    const newer = (manifest.schema?.migrations ?? []).filter((id) => !known.includes(id))
    if (newer.length > 0)
      throw new Error(
        `${basename(file)} comes from a newer Bosted (data migrations ${newer.join(', ')} are unknown to this version); restore it with that version or a newer one. Nothing was changed.`,
      )
    return { dir, manifest }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}

/**
 * Restores an archive into dataDir (the backend must be stopped). The current contents move to
 * dataDir/before-restore/ first (one level: the previous one is replaced).
 */
export function restore(
  file: string,
  { dataDir, workDir, known }: { dataDir: string; workDir: string; known?: string[] },
): { manifest: Manifest; ms: number } {
  const started = Date.now()
  const { dir, manifest } = verify(file, known ? { workDir, known } : { workDir })
  try {
    const aside = join(dataDir, 'before-restore')
    rmSync(aside, { recursive: true, force: true })
    mkdirSync(aside, { recursive: true })
    for (const entry of readdirSync(dataDir)) {
      if (entry === 'before-restore') continue
      renameSync(join(dataDir, entry), join(aside, entry))
    }
    for (const part of manifest.parts) {
      const target = join(dataDir, part.path)
      mkdirSync(dirname(target), { recursive: true })
      copyFileSync(join(dir, 'data', part.path), target)
    }
    return { manifest, ms: Date.now() - started }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Rows per table and a SHA-256 of each table's rows (sorted), for every SQLite file under dir. */
export function digest(dir: string): Record<string, { rows: number; sha256: string }> {
  const out: Record<string, { rows: number; sha256: string }> = {}
  for (const rel of filesUnder(dir, (path) => path.startsWith('before-restore')).filter(isSqlite)) {
    const db = new Database(join(dir, rel), { readonly: true, fileMustExist: true })
    try {
      for (const [table, count] of Object.entries(tableCounts(db))) {
        const rows = db
          .prepare(`SELECT * FROM "${table}"`)
          .raw()
          .all()
          .map((row) =>
            JSON.stringify(row, (_key, value) =>
              Buffer.isBuffer(value) ? value.toString('base64') : typeof value === 'bigint' ? String(value) : value,
            ),
          )
          .sort()
        out[`${rel}:${table}`] = { rows: count, sha256: createHash('sha256').update(rows.join('\n')).digest('hex') }
      }
    } finally {
      db.close()
    }
  }
  return out
}

/** Keeps the newest `keep` archives in backupDir; returns the ones removed. */
export function prune(backupDir: string, keep: number): string[] {
  const archives = readdirSync(backupDir)
    .filter((name) => /^bosted-backup-\d{8}T\d{6}Z\.tar\.gz$/.test(name))
    .sort()
  const removed = archives.slice(0, Math.max(0, archives.length - keep))
  for (const name of removed) rmSync(join(backupDir, name), { force: true })
  return removed
}

/**
 * The next daily run at hh:mm UTC strictly after `from`. Seconds (hh:mm:ss) are accepted too, so that
 * `make test-pilot` can let the daily backup fire a moment ahead.
 */
export function nextRun(time: string, from = new Date()): Date {
  const match = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(time)
  if (!match) throw new Error(`PILOT_BACKUP_TIME must be HH:MM (UTC), got ${time}`)
  const next = new Date(from)
  next.setUTCHours(Number(match[1]), Number(match[2]), Number(match[3] ?? 0), 0)
  if (next.getTime() <= from.getTime()) next.setUTCDate(next.getUTCDate() + 1)
  return next
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const describe = (result: BackupResult) =>
  `${result.archive} (${mb(result.bytes)}; ${result.manifest.counts.documents} documents, ${result.manifest.counts.objects} objects, ${result.manifest.counts.accounts} accounts, ${result.manifest.counts.accessLog} access-log entries) in ${result.ms} ms`

async function daemon(env: Env & { DATA_DIR: string; BACKUP_DIR: string }): Promise<void> {
  const keep = Number(env.PILOT_BACKUP_KEEP || 14)
  if (!Number.isInteger(keep) || keep < 1)
    throw new Error(`PILOT_BACKUP_KEEP must be a whole number ≥ 1, got ${env.PILOT_BACKUP_KEEP}`)
  const time = env.PILOT_BACKUP_TIME || '02:30'
  let next = nextRun(time)
  console.log(`ops: daily backup at ${time} UTC into ${env.BACKUP_DIR}, keeping ${keep}; next ${next.toISOString()}`)
  let stopping = false
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => (stopping = true))
  while (!stopping) {
    writeFileSync(HEARTBEAT, String(Date.now()))
    if (Date.now() >= next.getTime()) {
      try {
        const result = await backup({ dataDir: env.DATA_DIR, backupDir: env.BACKUP_DIR })
        console.log(`ops: daily backup ${describe(result)}`)
        const removed = prune(env.BACKUP_DIR, keep)
        if (removed.length) console.log(`ops: removed ${removed.length} old backup(s): ${removed.join(' ')}`)
      } catch (error) {
        console.error(`ops: the daily backup FAILED: ${error instanceof Error ? error.message : String(error)}`)
      }
      next = nextRun(time)
    }
    await sleep(5000)
  }
}

async function main([command, ...args]: string[], env: Env = process.env): Promise<void> {
  const dataDir = env.DATA_DIR || '/data'
  const backupDir = env.BACKUP_DIR || '/backups'
  if (command === 'backup') {
    const result = await backup({ dataDir, backupDir })
    console.log(`backup: ${describe(result)}`)
    console.log(
      `backup-json: ${JSON.stringify({ archive: result.archive, bytes: result.bytes, ms: result.ms, counts: result.manifest.counts })}`,
    )
  } else if (command === 'verify') {
    const { dir, manifest } = verify(args[0] ?? '', { workDir: backupDir })
    rmSync(dir, { recursive: true, force: true })
    console.log(`verify: ${args[0]} is complete and intact (${manifest.createdAt}, ${JSON.stringify(manifest.counts)})`)
  } else if (command === 'restore') {
    const { manifest, ms } = restore(args[0] ?? '', { dataDir, workDir: backupDir })
    console.log(
      `restore: ${args[0]} (taken ${manifest.createdAt}) restored into ${dataDir} in ${ms} ms: ${JSON.stringify(manifest.counts)}; the data it replaced is in ${join(dataDir, 'before-restore')}`,
    )
  } else if (command === 'digest') {
    console.log(JSON.stringify(digest(args[0] || dataDir)))
  } else if (command === 'daemon') {
    await daemon({ ...env, DATA_DIR: dataDir, BACKUP_DIR: backupDir })
  } else if (command === 'health') {
    const beat = existsSync(HEARTBEAT) ? Number(readFileSync(HEARTBEAT, 'utf8')) : 0
    if (Date.now() - beat > 60_000) throw new Error('no heartbeat for a minute')
  } else {
    console.error('usage: node ops.ts backup | verify FILE | restore FILE | digest [DIR] | daemon | health')
    process.exitCode = 2
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`ops: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  })
}
