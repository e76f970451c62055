import type { Ctx } from '../../http/core.ts'
import { ApiError } from '../../http/errors.ts'
import { assertDocumentPath, type DatabaseRef } from '../paths.ts'
import { type FirestoreService, parseReadTime, ruledCaller } from '../service.ts'
import { toDocumentResource } from '../writes.ts'

/** `GET …/documents/{path}`: one document, readable or not before it is known to exist. */
export function getDocument(fs: FirestoreService, c: Ctx, db: DatabaseRef, segments: string[]) {
  const path = segments.join('/')
  assertDocumentPath(path)
  const rawReadTime = c.get('url').searchParams.get('readTime')
  const doc =
    rawReadTime === null
      ? fs.store.getDocument(db.project, db.database, path)
      : fs.store.getDocumentAt(db.project, db.database, path, parseReadTime(rawReadTime))
  const caller = ruledCaller(c)
  fs.guard.get(db, caller, path, doc?.fields ?? null)
  if (!doc) throw new ApiError('NOT_FOUND', `Document ${path} not found`)
  c.get('access').add((recorder) => recorder.firestoreRead(db, caller, c.env.incoming, 'GetDocument', [doc]))
  return toDocumentResource(db, doc)
}
