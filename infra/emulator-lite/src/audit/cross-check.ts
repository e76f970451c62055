import type { AccessClassifier } from '@bosted/domain/access-classifier'
import type Database from 'better-sqlite3'
import { projectOfBucket } from '../security/storage-guard.ts'

/** A stored client write of a person's data whose access-log entry is not in the log. */
export type UnloggedWrite = {
  kind: 'document' | 'object'
  /** `project/database/path` of a document, `bucket/name` of an object. */
  name: string
  /** The seq the write carries (null: none at all). */
  seq: number | null
}

export type WriteCheck = {
  /** Documents and objects of persons written by clients, each checked against its entry. */
  checked: number
  /** Whose entry retention has removed since (not a gap: the marker records it). */
  pruned: number
  /** Written by privileged callers (the api logs those itself) or before writes carried a seq. */
  unchecked: number
  /** At most `limit` of them, and how many there are in all. */
  missing: UnloggedWrite[]
  missingCount: number
}

type StampedRow = { owner: string; database: string; path: string; writer: string | null; seq: number | null }

/**
 * The cross-check of `audit-verify` (ADR 0017): every stored document and file of a person that a
 * client wrote carries the seq of the entry appended in the same transaction; that entry must be in
 * the log (or removed by retention, which its marker records), name the same project and person and
 * be a create or an update. The hash chain alone cannot show entries cut off its end, nor a write
 * that was never logged; this can. A deleted document leaves nothing to check.
 */
export function checkWrites(db: Database.Database, classifier: AccessClassifier, limit = 20): WriteCheck | null {
  const tables = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name),
  )
  if (!tables.has('documents') || !tables.has('objects') || !tables.has('access_log')) return null
  const columns = new Set((db.pragma('table_info(documents)') as { name: string }[]).map((column) => column.name))
  if (!columns.has('access_seq')) return null
  let prunedThrough = 0
  for (const { record } of db
    .prepare("SELECT record FROM access_log WHERE operation = 'retention'")
    .iterate() as Iterable<{ record: string }>) {
    const marker = (JSON.parse(record) as { marker?: { prunedThroughSeq?: unknown } }).marker
    if (typeof marker?.prunedThroughSeq === 'number') prunedThrough = Math.max(prunedThrough, marker.prunedThroughSeq)
  }
  const entry = db.prepare<[number], { project: string; person_id: string; operation: string }>(
    'SELECT project, person_id, operation FROM access_log WHERE seq = ?',
  )
  const result: WriteCheck = { checked: 0, pruned: 0, unchecked: 0, missing: [], missingCount: 0 }
  const check = (
    kind: UnloggedWrite['kind'],
    row: StampedRow,
    name: string,
    data: { personId: string } | null,
    project: string,
  ) => {
    if (data === null) return
    if (row.writer !== 'client') {
      result.unchecked += 1
      return
    }
    result.checked += 1
    if (row.seq !== null && row.seq <= prunedThrough) {
      result.pruned += 1
      return
    }
    const found = row.seq === null ? undefined : entry.get(row.seq)
    const matches =
      found !== undefined &&
      found.project === project &&
      found.person_id === data.personId &&
      (found.operation === 'create' || found.operation === 'update')
    if (matches) return
    result.missingCount += 1
    if (result.missing.length < limit) result.missing.push({ kind, name, seq: row.seq })
  }
  // Only rows under the classifier's prefixes can be a person's data; the classifier decides each.
  const documents = db.prepare<[number, string], StampedRow>(
    'SELECT project AS owner, database, path, writer, access_seq AS seq FROM documents WHERE substr(path, 1, ?) = ?',
  )
  const objects = db.prepare<[number, string], StampedRow>(
    `SELECT bucket AS owner, '' AS database, name AS path, writer, access_seq AS seq FROM objects WHERE substr(name, 1, ?) = ?`,
  )
  for (const prefix of classifier.prefixes) {
    for (const row of documents.all(prefix.length, prefix))
      check('document', row, `${row.owner}/${row.database}/${row.path}`, classifier.document(row.path), row.owner)
    for (const row of objects.all(prefix.length, prefix))
      check('object', row, `${row.owner}/${row.path}`, classifier.object(row.path), projectOfBucket(row.owner))
  }
  return result
}
