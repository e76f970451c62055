import { createHash, randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import {
  type AccessFacts,
  type AccessOperation,
  type AccessRole,
  type AuditLogRecord,
  auditPayload,
} from '@bosted/domain/access-log'
import Database from 'better-sqlite3'

/** The hash an empty chain ends in: the first entry's predecessor. */
export const GENESIS_HASH = '0'.repeat(64)

/**
 * What a caller records: everything of an AuditLogRecord but its place in the chain. The resource
 * name is the full one: projects/…/databases/…/documents/persons/p1/notes, or …/objects/<name>.
 */
export type AccessRecord = AccessFacts & {
  project: string
  /** Defaults to now. */
  time?: Date
}

export type AccessLogFilter = {
  project: string
  personId: string
  /** Inclusive lower and exclusive upper bound, in ms since the epoch. */
  fromMs?: number
  toMs?: number
  actor?: string
  operation?: AccessOperation
  /** Only entries older than this seq (the previous page's last). */
  beforeSeq?: number
  pageSize: number
}

export type Verification = { intact: boolean; entries: number; brokenAt: number | null; pruned: number }

/** A retention marker: the entries it removed and the hash that ended them, in the chain itself. */
type PruneMarker = {
  kind: 'retention'
  prunedThroughSeq: number
  prunedThroughHash: string
  prunedCount: number
  cutoff: string
  retentionDays: number
  signedOffBy: string
  timestamp: string
}

type Row = { seq: number; record: string; prev_hash: string; hash: string }

/** The chain's link: SHA-256 over the predecessor's hash and this entry's canonical JSON (which holds its seq). */
export function linkHash(prevHash: string, record: string): string {
  return createHash('sha256').update(prevHash).update('\n').update(record).digest('hex')
}

/** The store's SQLite file, which holds the access log too (ADR 0017). */
export const STORE_FILE = 'emulator-lite.sqlite'
/** Where the log lived in its own file before ADR 0017; moved into the store file once at start. */
export const LEGACY_LOG_FILE = 'access-log.sqlite'

/** The access log's table and indexes (in the store's database file). */
export function createAccessLogTable(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS access_log (
      seq INTEGER PRIMARY KEY,
      project TEXT NOT NULL,
      -- '' for the chain's own entries (retention markers)
      person_id TEXT NOT NULL,
      time_ms INTEGER NOT NULL,
      principal_uid TEXT,
      operation TEXT NOT NULL,
      record TEXT NOT NULL,
      prev_hash TEXT NOT NULL,
      hash TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS access_log_person ON access_log (project, person_id, seq);
    CREATE INDEX IF NOT EXISTS access_log_person_actor ON access_log (project, person_id, principal_uid, seq);
  `)
}

/**
 * The append-only access log (issue 22), a table in the store's SQLite file (WAL, synchronous=FULL),
 * so a write and its entries commit in one transaction (ADR 0017): an entry is on disk before the
 * data it describes is sent, and no write is stored without its entry. Each entry carries the
 * SHA-256 of its predecessor's hash and itself, so an edit or deletion anywhere breaks the chain from
 * there on. Nothing updates or deletes entries except retention, which records what it removed (the
 * last removed entry's seq and hash) in a marker entry appended to the chain.
 */
export class AccessLog {
  readonly db: Database.Database
  /** Whether close() closes the database (not when it is the store's). */
  private readonly ownsDb: boolean
  private readonly statements

  /**
   * `db`: the store's open database (the emulator's way: writes and entries share transactions).
   * Otherwise a database of its own: `file`, or the store file in `dataDir`, or memory.
   */
  constructor(options: {
    db?: Database.Database
    dataDir?: string
    inMemory?: boolean
    file?: string
    readonly?: boolean
  }) {
    if (options.db !== undefined) {
      this.db = options.db
      this.ownsDb = false
    } else {
      let file = options.file ?? ':memory:'
      if (options.file === undefined && !options.inMemory) {
        const dir = options.dataDir ?? '.data/emulator-lite'
        mkdirSync(dir, { recursive: true })
        file = join(dir, STORE_FILE)
      }
      this.db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false })
      this.ownsDb = true
      if (!options.readonly) {
        this.db.pragma('journal_mode = WAL')
        this.db.pragma('synchronous = FULL')
      }
    }
    if (!options.readonly) createAccessLogTable(this.db)
    this.statements = {
      insert: this.db.prepare(
        `INSERT INTO access_log (seq, project, person_id, time_ms, principal_uid, operation, record, prev_hash, hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      last: this.db.prepare<[], { seq: number; hash: string }>(
        'SELECT seq, hash FROM access_log ORDER BY seq DESC LIMIT 1',
      ),
      all: this.db.prepare<[], Row>('SELECT seq, record, prev_hash, hash FROM access_log ORDER BY seq'),
      actors: this.db.prepare<[string, string], { uid: string; record: string }>(
        `SELECT a.principal_uid AS uid, a.record FROM access_log a JOIN (
           SELECT MAX(seq) AS seq FROM access_log
           WHERE project = ? AND person_id = ? AND principal_uid IS NOT NULL GROUP BY principal_uid
         ) latest ON a.seq = latest.seq`,
      ),
      lastBefore: this.db.prepare<[number], { seq: number; hash: string }>(
        'SELECT seq, hash FROM access_log WHERE time_ms < ? ORDER BY seq DESC LIMIT 1',
      ),
      countThrough: this.db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM access_log WHERE seq <= ?'),
      deleteThrough: this.db.prepare('DELETE FROM access_log WHERE seq <= ?'),
    }
  }

  /**
   * The chain's end as this connection sees it: committed entries, plus the running transaction's
   * own. Read from the database each time (a lookup of the last key), so it advances only with a
   * commit: a rolled-back write takes its entries' seqs back with it.
   */
  private end(): { seq: number; hash: string } {
    return this.statements.last.get() ?? { seq: 0, hash: GENESIS_HASH }
  }

  /**
   * Appends entries in one transaction (durable when this returns); their seqs, in order. Called
   * inside a transaction on the same database (a write's, see firestore/rpc/commit.ts), the entries
   * are part of it: they commit, or roll back, with the data they describe.
   */
  append(records: readonly AccessRecord[]): number[] {
    if (records.length === 0) return []
    return this.db.transaction(() => {
      const seqs: number[] = []
      let { seq: lastSeq, hash: lastHash } = this.end()
      for (const entry of records) {
        lastSeq += 1
        const time = entry.time ?? new Date()
        const record = JSON.stringify(toAuditRecord(lastSeq, entry, time))
        const hash = linkHash(lastHash, record)
        this.statements.insert.run(
          lastSeq,
          entry.project,
          entry.personId,
          time.getTime(),
          entry.principal.uid,
          entry.operation,
          record,
          lastHash,
          hash,
        )
        lastHash = hash
        seqs.push(lastSeq)
      }
      return seqs
    })()
  }

  /** A person's entries, newest first, one page (and whether there are more). */
  list(filter: AccessLogFilter): { records: AuditLogRecord[]; nextBeforeSeq: number | null } {
    const where = ['project = ?', 'person_id = ?']
    const params: (string | number)[] = [filter.project, filter.personId]
    if (filter.fromMs !== undefined) {
      where.push('time_ms >= ?')
      params.push(filter.fromMs)
    }
    if (filter.toMs !== undefined) {
      where.push('time_ms < ?')
      params.push(filter.toMs)
    }
    if (filter.actor !== undefined) {
      where.push('principal_uid = ?')
      params.push(filter.actor)
    }
    if (filter.operation !== undefined) {
      where.push('operation = ?')
      params.push(filter.operation)
    }
    if (filter.beforeSeq !== undefined) {
      where.push('seq < ?')
      params.push(filter.beforeSeq)
    }
    const rows = this.db
      .prepare<(string | number)[], { seq: number; record: string }>(
        `SELECT seq, record FROM access_log WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`,
      )
      .all(...params, filter.pageSize + 1)
    const page = rows.slice(0, filter.pageSize)
    const records = page.map((row) => JSON.parse(row.record) as AuditLogRecord)
    return { records, nextBeforeSeq: rows.length > filter.pageSize ? (page[page.length - 1]?.seq ?? null) : null }
  }

  /** Everyone who appears in a person's log, with the email and role of their latest entry. */
  actors(project: string, personId: string): { uid: string; email: string | null; role: AccessRole }[] {
    return this.statements.actors.all(project, personId).map(({ uid, record }) => {
      const parsed = JSON.parse(record) as AuditLogRecord
      return { uid, email: parsed.protoPayload.authenticationInfo.principalEmail, role: parsed.labels.role }
    })
  }

  /** Walks the whole chain: every entry's hash and its link to the one before (or to a retention marker). */
  verify(): Verification {
    let previousHash: string | null = null
    let previousSeq = 0
    let entries = 0
    let pruned = 0
    // The first remaining entry must follow the genesis, or the entry a retention marker names.
    let firstLink: { seq: number; prevHash: string } | null = null
    const markers: PruneMarker[] = []
    for (const row of this.statements.all.iterate()) {
      entries += 1
      const broken = () => ({ intact: false, entries, brokenAt: row.seq, pruned })
      if (linkHash(row.prev_hash, row.record) !== row.hash) return broken()
      let record: { seq?: unknown; marker?: PruneMarker }
      try {
        record = JSON.parse(row.record) as typeof record
      } catch {
        return broken()
      }
      if (record.seq !== row.seq) return broken()
      if (previousHash === null) firstLink = { seq: row.seq, prevHash: row.prev_hash }
      else if (row.seq !== previousSeq + 1 || row.prev_hash !== previousHash) return broken()
      if (record.marker?.kind === 'retention') {
        markers.push(record.marker)
        pruned += record.marker.prunedCount
      }
      previousHash = row.hash
      previousSeq = row.seq
    }
    if (firstLink !== null) {
      const start = firstLink
      const fromGenesis = start.seq === 1 && start.prevHash === GENESIS_HASH
      const fromMarker = markers.some(
        (marker) => marker.prunedThroughSeq === start.seq - 1 && marker.prunedThroughHash === start.prevHash,
      )
      if (!fromGenesis && !fromMarker) return { intact: false, entries, brokenAt: start.seq, pruned }
    }
    return { intact: true, entries, brokenAt: null, pruned }
  }

  /**
   * Retention: removes the entries older than `retentionDays` and appends a marker entry that names
   * the last removed entry's seq and hash, so the chain still verifies and the gap is on record.
   */
  prune(retentionDays: number, signedOffBy: string, now = new Date()): number {
    const cutoff = new Date(now.getTime() - retentionDays * 86_400_000)
    return this.db.transaction(() => {
      const end = this.end()
      const through = this.statements.lastBefore.get(cutoff.getTime())
      // The newest entry stays, whatever its age: it is what the next entry links to.
      if (!through || through.seq >= end.seq) return 0
      const prunedCount = this.statements.countThrough.get(through.seq)?.n ?? 0
      if (prunedCount === 0) return 0
      const marker: PruneMarker = {
        kind: 'retention',
        prunedThroughSeq: through.seq,
        prunedThroughHash: through.hash,
        prunedCount,
        cutoff: cutoff.toISOString(),
        retentionDays,
        signedOffBy,
        timestamp: now.toISOString(),
      }
      const seq = end.seq + 1
      const record = JSON.stringify({ seq, insertId: randomUUID(), timestamp: now.toISOString(), marker })
      this.statements.insert.run(
        seq,
        '',
        '',
        now.getTime(),
        null,
        'retention',
        record,
        end.hash,
        linkHash(end.hash, record),
      )
      this.statements.deleteThrough.run(through.seq)
      return prunedCount
    })()
  }

  close(): void {
    if (this.ownsDb) this.db.close()
  }
}

function toAuditRecord(seq: number, entry: AccessRecord, time: Date): AuditLogRecord {
  return {
    seq,
    insertId: randomUUID(),
    timestamp: time.toISOString(),
    logName: `projects/${entry.project}/logs/cloudaudit.googleapis.com%2Fdata_access`,
    ...auditPayload(entry),
  }
}
