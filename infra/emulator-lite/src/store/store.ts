import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { getField } from '../firestore/paths.ts'
import type { Fields } from '../firestore/values.ts'
import { type DiskState, unlessDiskFull } from './disk-state.ts'

export type StoredDocument = {
  path: string
  fields: Fields
  createTime: bigint
  updateTime: bigint
}

export type StoredObject = {
  bucket: string
  name: string
  data: Buffer
  metadata: Record<string, unknown>
}

/**
 * Who wrote a document or object, kept beside it: `client` (an unprivileged caller, whose write of a
 * person's data carries the seq of its access-log entry, appended in the same transaction) or
 * `server` (a privileged caller: the api, the seed). `audit-verify` checks the client writes'
 * entries. Rows from before these columns existed have neither.
 */
export type WriteStamp = { writer: 'client' | 'server'; accessSeq: number | null }

type DocumentRow = { path: string; fields: string; create_time: string; update_time: string }
type HistoryRow = {
  path: string
  parent: string
  collection_id: string
  fields: string
  create_time: bigint
  update_time: bigint
}

/** How far back reads with a `readTime` can go, as in production without point-in-time recovery. */
export const HISTORY_WINDOW_NANOS = 3_600_000_000_000n
/** Pruning the history on every write would cost a statement per commit; once a minute is plenty. */
const PRUNE_EVERY_MS = 60_000
type Entry = { doc: StoredDocument; parent: string; collectionId: string }

/**
 * A database's documents, parsed, mirrored in memory: queries read this instead of parsing every
 * row's JSON again. SQLite stays the durable copy; the mirror is loaded from it on first use and
 * written through on every change (undone when a transaction rolls back).
 */
class Mirror {
  readonly byPath = new Map<string, Entry>()
  readonly byCollection = new Map<string, Map<string, Entry>>()
  readonly byParent = new Map<string, Map<string, Entry>>()
  /**
   * Equality indexes on a string field of a collection id (the daily page's `locationId`, `day`),
   * built on first use and kept with every change: value → path → entry.
   */
  readonly byString = new Map<string, StringIndex>()

  set(entry: Entry): void {
    this.delete(entry.doc.path)
    this.byPath.set(entry.doc.path, entry)
    bucketOf(this.byCollection, entry.collectionId).set(entry.doc.path, entry)
    bucketOf(this.byParent, parentKey(entry.parent, entry.collectionId)).set(entry.doc.path, entry)
    for (const index of this.byString.values()) {
      const value = index.collectionId === entry.collectionId ? stringAt(entry, index.fieldPath) : undefined
      if (value !== undefined) bucketOf(index.values, value).set(entry.doc.path, entry)
    }
  }

  delete(path: string): Entry | undefined {
    const entry = this.byPath.get(path)
    if (!entry) return undefined
    this.byPath.delete(path)
    this.byCollection.get(entry.collectionId)?.delete(path)
    this.byParent.get(parentKey(entry.parent, entry.collectionId))?.delete(path)
    for (const index of this.byString.values()) {
      const value = index.collectionId === entry.collectionId ? stringAt(entry, index.fieldPath) : undefined
      if (value !== undefined) index.values.get(value)?.delete(path)
    }
    return entry
  }

  /** The index of `fieldPath`'s string values in `collectionId`, built from the documents on first use. */
  stringIndex(collectionId: string, fieldPath: string[]): StringIndex {
    const key = JSON.stringify([collectionId, ...fieldPath])
    let index = this.byString.get(key)
    if (!index) {
      index = { collectionId, fieldPath, values: new Map() }
      for (const entry of this.byCollection.get(collectionId)?.values() ?? []) {
        const value = stringAt(entry, fieldPath)
        if (value !== undefined) bucketOf(index.values, value).set(entry.doc.path, entry)
      }
      this.byString.set(key, index)
    }
    return index
  }
}

type StringIndex = { collectionId: string; fieldPath: string[]; values: Map<string, Map<string, Entry>> }

function stringAt(entry: Entry, fieldPath: string[]): string | undefined {
  const value = getField(entry.doc.fields, fieldPath)?.stringValue
  return typeof value === 'string' ? value : undefined
}

const parentKey = (parent: string, collectionId: string) => `${parent}\u0000${collectionId}`

function bucketOf<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let bucket = map.get(key)
  if (!bucket) {
    bucket = new Map()
    map.set(key, bucket)
  }
  return bucket
}

/**
 * Documents and objects in SQLite. WAL with synchronous=FULL: a write the server acknowledged
 * survives `kill -9`. `:memory:` for tests.
 */
export class Store {
  readonly db: Database.Database
  /** Whether the data disk has room (ADR 0018): client writes ask it first. Null: not watched. */
  disk: DiskState | null = null
  private readonly statements
  private readonly mirrors = new Map<string, Mirror>()
  /** Set while a transaction runs: how to put the mirror back if it rolls back. */
  private undo: (() => void)[] | null = null
  private lastPrune = 0

  constructor(options: { dataDir?: string; inMemory?: boolean }) {
    let file = ':memory:'
    if (!options.inMemory) {
      const dir = options.dataDir ?? '.data/emulator-lite'
      mkdirSync(dir, { recursive: true })
      file = join(dir, 'emulator-lite.sqlite')
    }
    this.db = new Database(file)
    this.db.pragma('journal_mode = WAL')
    this.db.pragma('synchronous = FULL')
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS documents (
        project TEXT NOT NULL, database TEXT NOT NULL, path TEXT NOT NULL,
        parent TEXT NOT NULL, collection_id TEXT NOT NULL,
        fields TEXT NOT NULL, create_time TEXT NOT NULL, update_time TEXT NOT NULL,
        PRIMARY KEY (project, database, path)
      );
      CREATE INDEX IF NOT EXISTS documents_collection ON documents (project, database, collection_id);
      CREATE INDEX IF NOT EXISTS documents_parent ON documents (project, database, parent, collection_id);
      -- Versions replaced or deleted within the last hour, for reads with a readTime: a version was
      -- current from update_time (inclusive) to superseded_at (exclusive).
      CREATE TABLE IF NOT EXISTS document_history (
        project TEXT NOT NULL, database TEXT NOT NULL, path TEXT NOT NULL,
        parent TEXT NOT NULL, collection_id TEXT NOT NULL,
        fields TEXT NOT NULL, create_time INTEGER NOT NULL, update_time INTEGER NOT NULL,
        superseded_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS document_history_path ON document_history (project, database, path, superseded_at);
      CREATE TABLE IF NOT EXISTS objects (
        bucket TEXT NOT NULL, name TEXT NOT NULL, data BLOB NOT NULL, metadata TEXT NOT NULL,
        PRIMARY KEY (bucket, name)
      );
    `)
    addStampColumns(this.db, 'documents')
    addStampColumns(this.db, 'objects')
    this.statements = {
      put: this.db.prepare(
        `INSERT INTO documents (project, database, path, parent, collection_id, fields, create_time, update_time, writer, access_seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (project, database, path) DO UPDATE SET fields = excluded.fields, update_time = excluded.update_time,
           writer = excluded.writer, access_seq = excluded.access_seq`,
      ),
      delete: this.db.prepare('DELETE FROM documents WHERE project = ? AND database = ? AND path = ?'),
      all: this.db.prepare<[string, string], DocumentRow & { parent: string; collection_id: string }>(
        'SELECT path, parent, collection_id, fields, create_time, update_time FROM documents WHERE project = ? AND database = ?',
      ),
      clear: this.db.prepare('DELETE FROM documents WHERE project = ? AND database = ?'),
      putHistory: this.db.prepare(
        `INSERT INTO document_history (project, database, path, parent, collection_id, fields, create_time, update_time, superseded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      historyOf: this.db
        .prepare<[string, string, string, bigint, bigint], HistoryRow>(
          `SELECT path, parent, collection_id, fields, create_time, update_time FROM document_history
           WHERE project = ? AND database = ? AND path = ? AND superseded_at > ? AND update_time <= ? LIMIT 1`,
        )
        .safeIntegers(true),
      historyAt: this.db
        .prepare<[string, string, bigint, bigint], HistoryRow>(
          `SELECT path, parent, collection_id, fields, create_time, update_time FROM document_history
           WHERE project = ? AND database = ? AND superseded_at > ? AND update_time <= ?`,
        )
        .safeIntegers(true),
      pruneHistory: this.db.prepare('DELETE FROM document_history WHERE superseded_at <= ?'),
      clearHistory: this.db.prepare('DELETE FROM document_history WHERE project = ? AND database = ?'),
      getObject: this.db.prepare<[string, string], { data: Buffer; metadata: string }>(
        'SELECT data, metadata FROM objects WHERE bucket = ? AND name = ?',
      ),
      putObject: this.db.prepare(
        `INSERT INTO objects (bucket, name, data, metadata, writer, access_seq) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (bucket, name) DO UPDATE SET data = excluded.data, metadata = excluded.metadata,
           writer = excluded.writer, access_seq = excluded.access_seq`,
      ),
      putMetadata: this.db.prepare(
        'UPDATE objects SET metadata = ?, writer = ?, access_seq = ? WHERE bucket = ? AND name = ?',
      ),
      deleteObject: this.db.prepare('DELETE FROM objects WHERE bucket = ? AND name = ?'),
      listObjects: this.db.prepare<[string, string], { name: string; metadata: string }>(
        'SELECT name, metadata FROM objects WHERE bucket = ? AND name >= ? ORDER BY name',
      ),
      clearObjects: this.db.prepare('DELETE FROM objects'),
    }
    unlessDiskFull(() => this.pruneHistory())
  }

  private mirror(project: string, database: string): Mirror {
    const key = `${project}\u0000${database}`
    let mirror = this.mirrors.get(key)
    if (!mirror) {
      mirror = new Mirror()
      for (const row of this.statements.all.iterate(project, database)) {
        mirror.set({ doc: toDocument(row), parent: row.parent, collectionId: row.collection_id })
      }
      this.mirrors.set(key, mirror)
    }
    return mirror
  }

  /** Remembers how to restore `path` in the mirror should the running transaction roll back. */
  private remember(mirror: Mirror, path: string): void {
    const previous = mirror.byPath.get(path)
    this.undo?.push(() => (previous ? mirror.set(previous) : mirror.delete(path)))
  }

  /**
   * Told after documents of a database may have changed (once per turn of the event loop, also for
   * writes a transaction then undid): Firestore's Listen streams re-evaluate their targets.
   */
  readonly documentWatchers = new Set<(project: string, database: string) => void>()
  private changedDatabases: Set<string> | null = null

  private changed(project: string, database: string): void {
    if (this.documentWatchers.size === 0) return
    if (this.changedDatabases === null) {
      this.changedDatabases = new Set()
      setImmediate(() => {
        const databases = this.changedDatabases ?? new Set<string>()
        this.changedDatabases = null
        for (const key of databases) {
          const [changedProject, changedDatabase] = key.split('\u0000') as [string, string]
          for (const watcher of this.documentWatchers) watcher(changedProject, changedDatabase)
        }
      })
    }
    this.changedDatabases.add(`${project}\u0000${database}`)
  }

  /** The stored document; callers must not mutate it (it is the mirror's copy). */
  getDocument(project: string, database: string, path: string): StoredDocument | null {
    return this.mirror(project, database).byPath.get(path)?.doc ?? null
  }

  putDocument(
    project: string,
    database: string,
    doc: StoredDocument,
    parent: string,
    collectionId: string,
    stamp: WriteStamp | null = null,
  ): void {
    const mirror = this.mirror(project, database)
    const previous = mirror.byPath.get(doc.path)
    if (previous) this.keepHistory(project, database, previous, doc.updateTime)
    this.statements.put.run(
      project,
      database,
      doc.path,
      parent,
      collectionId,
      JSON.stringify(doc.fields),
      doc.createTime.toString(),
      doc.updateTime.toString(),
      stamp?.writer ?? null,
      stamp?.accessSeq ?? null,
    )
    this.remember(mirror, doc.path)
    mirror.set({ doc, parent, collectionId })
    this.changed(project, database)
  }

  /** Deletes a document; `deleteTime` ends its current version in the history. */
  deleteDocument(project: string, database: string, path: string, deleteTime: bigint): void {
    const mirror = this.mirror(project, database)
    const previous = mirror.byPath.get(path)
    if (!previous) return
    this.keepHistory(project, database, previous, deleteTime)
    this.statements.delete.run(project, database, path)
    this.remember(mirror, path)
    mirror.delete(path)
    this.changed(project, database)
  }

  private keepHistory(project: string, database: string, previous: Entry, supersededAt: bigint): void {
    // Two writes to one document in one commit: the first version was never visible, so it has no history.
    if (previous.doc.updateTime < supersededAt) {
      const { doc } = previous
      this.statements.putHistory.run(
        project,
        database,
        doc.path,
        previous.parent,
        previous.collectionId,
        JSON.stringify(doc.fields),
        doc.createTime,
        doc.updateTime,
        supersededAt,
      )
    }
    if (Date.now() - this.lastPrune >= PRUNE_EVERY_MS) this.pruneHistory()
  }

  /** Drops versions that no read within the history window can see any more. */
  pruneHistory(now = BigInt(Date.now()) * 1_000_000n): void {
    this.lastPrune = Date.now()
    this.statements.pruneHistory.run(now - HISTORY_WINDOW_NANOS)
  }

  /** The document as it was at `readTime` (nanoseconds), from the history when it changed since. */
  getDocumentAt(project: string, database: string, path: string, readTime: bigint): StoredDocument | null {
    const current = this.getDocument(project, database, path)
    if (current && current.updateTime <= readTime) return current
    const row = this.statements.historyOf.get(project, database, path, readTime, readTime)
    return row ? historyDocument(row) : null
  }

  /** listDocuments as of `readTime`: current versions written by then, and older versions current then. */
  listDocumentsAt(
    project: string,
    database: string,
    scope: { parent: string; collectionId?: string; allDescendants: boolean },
    readTime: bigint,
  ): StoredDocument[] {
    const docs = this.listDocuments(project, database, scope).filter((doc) => doc.updateTime <= readTime)
    const prefix = `${scope.parent}/`
    for (const row of this.statements.historyAt.iterate(project, database, readTime, readTime)) {
      if (scope.collectionId !== undefined && row.collection_id !== scope.collectionId) continue
      if (scope.allDescendants ? scope.parent !== '' && !row.path.startsWith(prefix) : row.parent !== scope.parent)
        continue
      docs.push(historyDocument(row))
    }
    return docs
  }

  /** Direct children of a parent document (or the root, ''), or every document of a collection id. */
  listDocuments(
    project: string,
    database: string,
    scope: { parent: string; collectionId?: string; allDescendants: boolean },
  ): StoredDocument[] {
    const mirror = this.mirror(project, database)
    let entries: Iterable<Entry>
    if (!scope.allDescendants && scope.collectionId !== undefined) {
      entries = mirror.byParent.get(parentKey(scope.parent, scope.collectionId))?.values() ?? []
    } else {
      entries =
        scope.collectionId !== undefined
          ? (mirror.byCollection.get(scope.collectionId)?.values() ?? [])
          : mirror.byPath.values()
    }
    const prefix = `${scope.parent}/`
    const docs: StoredDocument[] = []
    for (const entry of entries) {
      if (scope.allDescendants && scope.parent !== '' && !entry.doc.path.startsWith(prefix)) continue
      docs.push(entry.doc)
    }
    return docs
  }

  /**
   * The documents of a collection id under `parent` (any depth; '' for all) whose field at a
   * `fieldPath` is the string `value`, for the most selective of the equalities given, from equality
   * indexes: what a collection-group query with those filters needs to look at, not the whole group.
   */
  listDocumentsWithString(
    project: string,
    database: string,
    scope: { parent: string; collectionId: string },
    equalities: readonly { fieldPath: string[]; value: string }[],
  ): StoredDocument[] {
    const mirror = this.mirror(project, database)
    let fewest: Map<string, Entry> | undefined
    for (const { fieldPath, value } of equalities) {
      const matching = mirror.stringIndex(scope.collectionId, fieldPath).values.get(value)
      if (matching === undefined || matching.size === 0) return []
      if (fewest === undefined || matching.size < fewest.size) fewest = matching
    }
    const prefix = `${scope.parent}/`
    const docs: StoredDocument[] = []
    for (const entry of fewest?.values() ?? []) {
      if (scope.parent !== '' && !entry.doc.path.startsWith(prefix)) continue
      docs.push(entry.doc)
    }
    return docs
  }

  clearDatabase(project: string, database: string): void {
    // One transaction, then the mirror: a disk that fills half-way leaves both as they were.
    this.db.transaction(() => {
      this.statements.clear.run(project, database)
      this.statements.clearHistory.run(project, database)
    })()
    this.mirrors.set(`${project}\u0000${database}`, new Mirror())
    this.changed(project, database)
  }

  /** Runs `work` atomically: SQLite and the mirror both roll back if it throws. */
  transaction<T>(work: () => T): T {
    if (this.undo) return this.db.transaction(work)()
    this.undo = []
    const undo = this.undo
    try {
      return this.db.transaction(work)()
    } catch (error) {
      for (const step of undo.reverse()) step()
      throw error
    } finally {
      this.undo = null
    }
  }

  getObject(bucket: string, name: string): StoredObject | null {
    const row = this.statements.getObject.get(bucket, name)
    return row ? { bucket, name, data: row.data, metadata: JSON.parse(row.metadata) } : null
  }

  putObject(object: StoredObject, stamp: WriteStamp | null = null): void {
    this.statements.putObject.run(
      object.bucket,
      object.name,
      object.data,
      JSON.stringify(object.metadata),
      stamp?.writer ?? null,
      stamp?.accessSeq ?? null,
    )
  }

  updateObjectMetadata(
    bucket: string,
    name: string,
    metadata: Record<string, unknown>,
    stamp: WriteStamp | null = null,
  ): void {
    this.statements.putMetadata.run(
      JSON.stringify(metadata),
      stamp?.writer ?? null,
      stamp?.accessSeq ?? null,
      bucket,
      name,
    )
  }

  deleteObject(bucket: string, name: string): boolean {
    return this.statements.deleteObject.run(bucket, name).changes > 0
  }

  /** Objects whose names start with `prefix`, in name (UTF-8 byte) order. */
  listObjects(bucket: string, prefix: string): { name: string; metadata: Record<string, unknown> }[] {
    // SQLite compares UTF-8 bytes, so the names with this prefix are one contiguous run from `prefix`
    // on. (An upper bound of `prefix + '\uffff'` would miss names with characters beyond U+FFFF.)
    const objects: { name: string; metadata: Record<string, unknown> }[] = []
    for (const row of this.statements.listObjects.iterate(bucket, prefix)) {
      if (!row.name.startsWith(prefix)) break
      objects.push({ name: row.name, metadata: JSON.parse(row.metadata) })
    }
    return objects
  }

  clearObjects(): void {
    this.statements.clearObjects.run()
  }

  close(): void {
    this.db.close()
  }
}

/** The write stamp's columns, added to a database made before they existed (its rows keep NULL). */
function addStampColumns(db: Database.Database, table: 'documents' | 'objects'): void {
  const columns = new Set((db.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name))
  if (!columns.has('writer')) db.exec(`ALTER TABLE ${table} ADD COLUMN writer TEXT`)
  if (!columns.has('access_seq')) db.exec(`ALTER TABLE ${table} ADD COLUMN access_seq INTEGER`)
}

function historyDocument(row: HistoryRow): StoredDocument {
  return { path: row.path, fields: JSON.parse(row.fields), createTime: row.create_time, updateTime: row.update_time }
}

function toDocument(row: DocumentRow): StoredDocument {
  return {
    path: row.path,
    fields: JSON.parse(row.fields),
    createTime: BigInt(row.create_time),
    updateTime: BigInt(row.update_time),
  }
}
