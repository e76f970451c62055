import type { Ctx } from '../../http/core.ts'
import { invalid } from '../../http/errors.ts'
import { assertDocumentPath, assertNotReserved, type DatabaseRef, parseDocumentName } from '../paths.ts'
import { type FirestoreService, parseReadTime, ruledCaller } from '../service.ts'
import { compareReferences } from '../values.ts'
import { toDocumentResource } from '../writes.ts'

/** Page size of list documents when the request names none. */
export const LIST_PAGE_SIZE = 300

/** `GET …/documents/{parent}/{collectionId}`: a page of a collection, as a query the rules must allow. */
export function listDocuments(fs: FirestoreService, c: Ctx, db: DatabaseRef, segments: string[]) {
  const { store } = fs
  const url = c.get('url')
  const collectionId = segments[segments.length - 1] as string
  const parent = segments.slice(0, -1).join('/')
  if (parent !== '') assertDocumentPath(parent)
  const caller = ruledCaller(c)
  fs.guard.list(db, caller, parent, { from: [{ collectionId }] })
  assertNotReserved(collectionId)
  const rawReadTime = url.searchParams.get('readTime')
  const readTime = rawReadTime === null ? undefined : parseReadTime(rawReadTime)
  const documentsIn = (scope: { parent: string; collectionId?: string; allDescendants: boolean }) =>
    readTime === undefined
      ? store.listDocuments(db.project, db.database, scope)
      : store.listDocumentsAt(db.project, db.database, scope, readTime)
  const prefix = parent === '' ? `${collectionId}/` : `${parent}/${collectionId}/`
  const found = new Map<string, Record<string, unknown>>()
  for (const doc of documentsIn({ parent, collectionId, allDescendants: false }))
    found.set(doc.path, toDocumentResource(db, doc))
  if (url.searchParams.get('showMissing') === 'true') {
    for (const doc of documentsIn({ parent, allDescendants: true })) {
      if (!doc.path.startsWith(prefix)) continue
      const id = doc.path.slice(prefix.length).split('/')[0] as string
      const path = `${prefix}${id}`
      if (!found.has(path))
        found.set(path, { name: `projects/${db.project}/databases/${db.database}/documents/${path}` })
    }
  }
  const all = [...found.entries()].sort(([a], [b]) => compareReferences(a, b))
  // Clients that send no pageSize (firebase-admin) get pages too, and follow nextPageToken.
  const rawSize = url.searchParams.get('pageSize')
  const pageSize = rawSize === null || rawSize === '' || rawSize === '0' ? LIST_PAGE_SIZE : Number(rawSize)
  if (!Number.isInteger(pageSize) || pageSize < 0) throw invalid('pageSize must be a non-negative integer')
  // The token is the name of the last document sent, so deletes between pages skip nothing.
  const token = url.searchParams.get('pageToken') ?? ''
  let rest = all
  if (token !== '') {
    const after = Buffer.from(token, 'base64url').toString('utf8')
    if (!after.startsWith(prefix)) throw invalid('Invalid pageToken')
    rest = all.filter(([path]) => compareReferences(path, after) > 0)
  }
  const page = rest.slice(0, pageSize)
  const last = page[page.length - 1]?.[0]
  const listed = {
    documents: page.map(([, doc]) => doc),
    ...(rest.length > pageSize && last ? { nextPageToken: Buffer.from(last, 'utf8').toString('base64url') } : {}),
  }
  const touched = listed.documents.flatMap((doc) =>
    typeof doc.name === 'string' ? [{ path: parseDocumentName(doc.name, db) }] : [],
  )
  c.get('access').add((recorder) =>
    recorder.firestoreRead(db, caller, c.env.incoming, 'ListDocuments', touched, {
      parent,
      collectionId,
      allDescendants: false,
    }),
  )
  return listed
}
