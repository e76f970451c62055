// better-sqlite3 against Node 24's built-in node:sqlite on the store's own statements (issue 30):
// point reads by primary key, one commit (a document and its history row in one transaction) with
// WAL and synchronous=FULL on a file, and a scan of 10,000 rows (what loading a project's mirror does).
//   node --import tsx infra/emulator-lite/bench/sqlite-bench.ts
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'

const require = createRequire(import.meta.url)

type Stmt = {
  run(...a: unknown[]): unknown
  get(...a: unknown[]): unknown
  iterate(...a: unknown[]): Iterable<unknown>
}
type Db = { prepare(sql: string): Stmt; exec(sql: string): void; begin(): void; commit(): void; close(): void }

function betterSqlite(file: string): Db {
  const Database = require('better-sqlite3')
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  const begin = db.prepare('BEGIN')
  const commit = db.prepare('COMMIT')
  return {
    prepare: (sql) => db.prepare(sql),
    exec: (sql) => db.exec(sql),
    begin: () => begin.run(),
    commit: () => commit.run(),
    close: () => db.close(),
  }
}

function nodeSqlite(file: string): Db {
  const db = new DatabaseSync(file)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = FULL')
  const begin = db.prepare('BEGIN')
  const commit = db.prepare('COMMIT')
  return {
    prepare: (sql) => db.prepare(sql) as unknown as Stmt,
    exec: (sql) => db.exec(sql),
    begin: () => begin.run(),
    commit: () => commit.run(),
    close: () => db.close(),
  }
}

const SCHEMA = `
  CREATE TABLE documents (
    project TEXT NOT NULL, database TEXT NOT NULL, path TEXT NOT NULL,
    parent TEXT NOT NULL, collection_id TEXT NOT NULL,
    fields TEXT NOT NULL, create_time TEXT NOT NULL, update_time TEXT NOT NULL,
    PRIMARY KEY (project, database, path)
  );
  CREATE INDEX documents_collection ON documents (project, database, collection_id);
  CREATE INDEX documents_parent ON documents (project, database, parent, collection_id);
  CREATE TABLE document_history (
    project TEXT NOT NULL, database TEXT NOT NULL, path TEXT NOT NULL,
    parent TEXT NOT NULL, collection_id TEXT NOT NULL,
    fields TEXT NOT NULL, create_time INTEGER NOT NULL, update_time INTEGER NOT NULL,
    superseded_at INTEGER NOT NULL
  );
  CREATE INDEX document_history_path ON document_history (project, database, path, superseded_at);`
const PUT = `INSERT INTO documents (project, database, path, parent, collection_id, fields, create_time, update_time)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (project, database, path) DO UPDATE SET fields = excluded.fields, update_time = excluded.update_time`
const PUT_HISTORY = `INSERT INTO document_history (project, database, path, parent, collection_id, fields, create_time, update_time, superseded_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
const GET = 'SELECT fields, create_time, update_time FROM documents WHERE project = ? AND database = ? AND path = ?'
const ALL =
  'SELECT path, parent, collection_id, fields, create_time, update_time FROM documents WHERE project = ? AND database = ?'

const ROWS = 10_000
const fields = JSON.stringify({
  personId: { stringValue: 'p-0001' },
  locationId: { stringValue: 'loc-solsikken' },
  day: { stringValue: '2026-11-25' },
  answer: {
    mapValue: {
      fields: { id: { stringValue: 'a3' }, label: { stringValue: 'God dag' }, value: { integerValue: '3' } },
    },
  },
  by: { stringValue: 'uid-medarbejder' },
  createdAt: { timestampValue: '2026-11-25T08:00:00.000Z' },
})
const path = (i: number) => `projects/p/databases/(default)/documents/registrations/r${i}`

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

function run(name: string, open: (file: string) => Db): Record<string, number> {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-bench-'))
  const db = open(join(dir, 'bench.sqlite'))
  try {
    db.exec(SCHEMA)
    const put = db.prepare(PUT)
    const putHistory = db.prepare(PUT_HISTORY)
    const get = db.prepare(GET)
    const all = db.prepare(ALL)
    db.begin()
    for (let i = 0; i < ROWS; i++)
      put.run('p', '(default)', path(i), 'registrations', 'registrations', fields, '1', '1')
    db.commit()

    const reads: number[] = []
    for (let round = 0; round < 20; round++) {
      const t = performance.now()
      for (let i = 0; i < 1000; i++) get.get('p', '(default)', path((i * 7919 + round) % ROWS))
      reads.push(((performance.now() - t) * 1000) / 1000) // µs per read
    }
    const commits: number[] = []
    for (let i = 0; i < 300; i++) {
      const t = performance.now()
      db.begin()
      putHistory.run('p', '(default)', path(i), 'registrations', 'registrations', fields, 1, 1, i + 2)
      put.run('p', '(default)', path(i), 'registrations', 'registrations', fields, '1', String(i + 2))
      db.commit()
      commits.push(performance.now() - t)
    }
    const scans: number[] = []
    for (let round = 0; round < 15; round++) {
      const t = performance.now()
      let n = 0
      for (const row of all.iterate('p', '(default)')) if (row) n++
      if (n !== ROWS) throw new Error(`scan saw ${n} rows`)
      scans.push(performance.now() - t)
    }
    return {
      'point read p50 µs': pct(reads, 50),
      'commit p50 ms': pct(commits, 50),
      'commit p99 ms': pct(commits, 99),
      '10k scan p50 ms': pct(scans, 50),
    }
  } finally {
    db.close()
    rmSync(dir, { recursive: true, force: true })
    void name
  }
}

const results: Record<'better-sqlite3' | 'node:sqlite', Record<string, number>> = {
  'better-sqlite3': {},
  'node:sqlite': {},
}
// Alternate the two three times and keep each one's best round, so a busy moment on a shared machine
// does not decide it.
for (let i = 0; i < 3; i++) {
  for (const [name, open] of [
    ['better-sqlite3', betterSqlite],
    ['node:sqlite', nodeSqlite],
  ] as const) {
    const r = run(name, open)
    for (const [k, v] of Object.entries(r)) results[name][k] = Math.min(results[name][k] ?? Number.POSITIVE_INFINITY, v)
  }
}
console.log(
  `Node ${process.versions.node}, load ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
console.log('measure'.padEnd(22), 'better-sqlite3'.padStart(16), 'node:sqlite'.padStart(14))
for (const key of Object.keys(results['better-sqlite3'])) {
  console.log(
    key.padEnd(22),
    (results['better-sqlite3'][key] ?? Number.NaN).toFixed(2).padStart(16),
    (results['node:sqlite'][key] ?? Number.NaN).toFixed(2).padStart(14),
  )
}
