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

/**
 * Documents and objects in SQLite. WAL with synchronous=FULL: a write the server acknowledged
 * survives `kill -9`. `:memory:` for tests.
 */
export class Store {
  readonly db: Database.Database
  private readonly statements

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
      get: this.db.prepare<[string, string, string], DocumentRow>(
        'SELECT path, fields, create_time, update_time FROM documents WHERE project = ? AND database = ? AND path = ?',
      ),
      put: this.db.prepare(
        `INSERT INTO documents (project, database, path, parent, collection_id, fields, create_time, update_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (project, database, path) DO UPDATE SET fields = excluded.fields, update_time = excluded.update_time`,
      ),
      delete: this.db.prepare('DELETE FROM documents WHERE project = ? AND database = ? AND path = ?'),
      byParent: this.db.prepare<[string, string, string, string], DocumentRow>(
        'SELECT path, fields, create_time, update_time FROM documents WHERE project = ? AND database = ? AND parent = ? AND collection_id = ?',
      ),
      byCollectionId: this.db.prepare<[string, string, string], DocumentRow>(
        'SELECT path, fields, create_time, update_time FROM documents WHERE project = ? AND database = ? AND collection_id = ?',
      ),
      all: this.db.prepare<[string, string], DocumentRow>(
        'SELECT path, fields, create_time, update_time FROM documents WHERE project = ? AND database = ?',
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
      listObjects: this.db.prepare<[string, string, string], { name: string; metadata: string }>(
        'SELECT name, metadata FROM objects WHERE bucket = ? AND name >= ? AND name < ? ORDER BY name',
      ),
      clearObjects: this.db.prepare('DELETE FROM objects'),
    }
  }

  getDocument(project: string, database: string, path: string): StoredDocument | null {
    const row = this.statements.get.get(project, database, path)
    return row ? toDocument(row) : null
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
  }

  deleteDocument(project: string, database: string, path: string): void {
    this.statements.delete.run(project, database, path)
  }

  /** Direct children of a parent document (or the root, ''), or every document of a collection id. */
  listDocuments(
    project: string,
    database: string,
    scope: { parent: string; collectionId?: string; allDescendants: boolean },
  ): StoredDocument[] {
    let rows: DocumentRow[]
    if (!scope.allDescendants && scope.collectionId !== undefined) {
      rows = this.statements.byParent.all(project, database, scope.parent, scope.collectionId)
    } else {
      rows =
        scope.collectionId !== undefined
          ? this.statements.byCollectionId.all(project, database, scope.collectionId)
          : this.statements.all.all(project, database)
      if (scope.parent !== '') rows = rows.filter((row) => row.path.startsWith(`${scope.parent}/`))
    }
    return rows.map(toDocument)
  }

  clearDatabase(project: string, database: string): void {
    this.statements.clear.run(project, database)
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)()
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

  /** Objects whose names start with `prefix`, in name order. */
  listObjects(bucket: string, prefix: string): { name: string; metadata: Record<string, unknown> }[] {
    return this.statements.listObjects
      .all(bucket, prefix, `${prefix}\uffff`)
      .map((row) => ({ name: row.name, metadata: JSON.parse(row.metadata) }))
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
