import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import type { Fields } from '../firestore/values.ts'

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

type DocumentRow = { path: string; fields: string; create_time: string; update_time: string }
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

  set(entry: Entry): void {
    this.delete(entry.doc.path)
    this.byPath.set(entry.doc.path, entry)
    bucketOf(this.byCollection, entry.collectionId).set(entry.doc.path, entry)
    bucketOf(this.byParent, parentKey(entry.parent, entry.collectionId)).set(entry.doc.path, entry)
  }

  delete(path: string): Entry | undefined {
    const entry = this.byPath.get(path)
    if (!entry) return undefined
    this.byPath.delete(path)
    this.byCollection.get(entry.collectionId)?.delete(path)
    this.byParent.get(parentKey(entry.parent, entry.collectionId))?.delete(path)
    return entry
  }
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
  private readonly statements
  private readonly mirrors = new Map<string, Mirror>()
  /** Set while a transaction runs: how to put the mirror back if it rolls back. */
  private undo: (() => void)[] | null = null

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
      CREATE TABLE IF NOT EXISTS objects (
        bucket TEXT NOT NULL, name TEXT NOT NULL, data BLOB NOT NULL, metadata TEXT NOT NULL,
        PRIMARY KEY (bucket, name)
      );
    `)
    this.statements = {
      put: this.db.prepare(
        `INSERT INTO documents (project, database, path, parent, collection_id, fields, create_time, update_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (project, database, path) DO UPDATE SET fields = excluded.fields, update_time = excluded.update_time`,
      ),
      delete: this.db.prepare('DELETE FROM documents WHERE project = ? AND database = ? AND path = ?'),
      all: this.db.prepare<[string, string], DocumentRow & { parent: string; collection_id: string }>(
        'SELECT path, parent, collection_id, fields, create_time, update_time FROM documents WHERE project = ? AND database = ?',
      ),
      clear: this.db.prepare('DELETE FROM documents WHERE project = ? AND database = ?'),
      getObject: this.db.prepare<[string, string], { data: Buffer; metadata: string }>(
        'SELECT data, metadata FROM objects WHERE bucket = ? AND name = ?',
      ),
      putObject: this.db.prepare(
        'INSERT INTO objects (bucket, name, data, metadata) VALUES (?, ?, ?, ?) ON CONFLICT (bucket, name) DO UPDATE SET data = excluded.data, metadata = excluded.metadata',
      ),
      putMetadata: this.db.prepare('UPDATE objects SET metadata = ? WHERE bucket = ? AND name = ?'),
      deleteObject: this.db.prepare('DELETE FROM objects WHERE bucket = ? AND name = ?'),
      listObjects: this.db.prepare<[string, string], { name: string; metadata: string }>(
        'SELECT name, metadata FROM objects WHERE bucket = ? AND name >= ? ORDER BY name',
      ),
      clearObjects: this.db.prepare('DELETE FROM objects'),
    }
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

  /** The stored document; callers must not mutate it (it is the mirror's copy). */
  getDocument(project: string, database: string, path: string): StoredDocument | null {
    return this.mirror(project, database).byPath.get(path)?.doc ?? null
  }

  putDocument(project: string, database: string, doc: StoredDocument, parent: string, collectionId: string): void {
    this.statements.put.run(
      project,
      database,
      doc.path,
      parent,
      collectionId,
      JSON.stringify(doc.fields),
      doc.createTime.toString(),
      doc.updateTime.toString(),
    )
    const mirror = this.mirror(project, database)
    this.remember(mirror, doc.path)
    mirror.set({ doc, parent, collectionId })
  }

  deleteDocument(project: string, database: string, path: string): void {
    this.statements.delete.run(project, database, path)
    const mirror = this.mirror(project, database)
    this.remember(mirror, path)
    mirror.delete(path)
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

  clearDatabase(project: string, database: string): void {
    this.statements.clear.run(project, database)
    this.mirrors.set(`${project}\u0000${database}`, new Mirror())
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

  putObject(object: StoredObject): void {
    this.statements.putObject.run(object.bucket, object.name, object.data, JSON.stringify(object.metadata))
  }

  updateObjectMetadata(bucket: string, name: string, metadata: Record<string, unknown>): void {
    this.statements.putMetadata.run(JSON.stringify(metadata), bucket, name)
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

function toDocument(row: DocumentRow): StoredDocument {
  return {
    path: row.path,
    fields: JSON.parse(row.fields),
    createTime: BigInt(row.create_time),
    updateTime: BigInt(row.update_time),
  }
}
