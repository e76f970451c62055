import type { Ctx } from '../../http/core.ts'
import type { DatabaseRef } from '../paths.ts'
import { type FirestoreService, parseReadTime, ruledCaller } from '../service.ts'

/** `:listCollectionIds`: server SDKs only, as in production's rules. */
export function listCollectionIds(
  fs: FirestoreService,
  c: Ctx,
  db: DatabaseRef,
  parent: string,
  body: Record<string, unknown>,
) {
  fs.guard.privilegedOnly(db, ruledCaller(c))
  const readTime = body.readTime === undefined ? undefined : parseReadTime(body.readTime)
  const prefix = parent === '' ? '' : `${parent}/`
  const ids = new Set<string>()
  const scope = { parent, allDescendants: true }
  const docs =
    readTime === undefined
      ? fs.store.listDocuments(db.project, db.database, scope)
      : fs.store.listDocumentsAt(db.project, db.database, scope, readTime)
  for (const doc of docs) ids.add(doc.path.slice(prefix.length).split('/')[0] as string)
  return { collectionIds: [...ids].sort() }
}
