import type { Ctx } from '../../http/core.ts'
import { invalid } from '../../http/errors.ts'
import { type DatabaseRef, parseDocumentName, parseFieldPath } from '../paths.ts'
import { type FirestoreService, ruledCaller } from '../service.ts'
import { toDocumentResource } from '../writes.ts'

/** `:batchGet`: every document must be readable, found or not, before any is sent. */
export function batchGet(fs: FirestoreService, c: Ctx, db: DatabaseRef, body: Record<string, unknown>) {
  if (!Array.isArray(body.documents)) throw invalid('documents must be an array')
  const names = body.documents as unknown[]
  const paths = names.map((name) => parseDocumentName(name, db))
  const mask = (body.mask as { fieldPaths?: string[] } | undefined)?.fieldPaths?.map((path) => parseFieldPath(path))
  const { tx, readTime: at } = fs.consistencyOf(db, body)
  const readTime = fs.responseTime(at)
  const docs = paths.map((path) =>
    at === undefined
      ? fs.store.getDocument(db.project, db.database, path)
      : fs.store.getDocumentAt(db.project, db.database, path, at),
  )
  const caller = ruledCaller(c)
  paths.forEach((path, index) => {
    fs.guard.get(db, caller, path, docs[index]?.fields ?? null)
  })
  const found = docs.filter((doc) => doc !== null)
  c.get('access').add((recorder) => recorder.firestoreRead(db, caller, c.env.incoming, 'BatchGetDocuments', found))
  return paths.map((path, index) => {
    const doc = docs[index] ?? null
    if (at === undefined) tx.state?.reads.set(path, doc?.updateTime ?? null)
    const element: Record<string, unknown> = doc
      ? { found: toDocumentResource(db, doc, mask), readTime }
      : { missing: names[index], readTime }
    if (tx.isNew && index === 0) element.transaction = tx.id
    return element
  })
}
