import type { Ctx } from '../../http/core.ts'
import type { DatabaseRef } from '../paths.ts'
import { runQuery as execute, selectMask } from '../query.ts'
import { type FirestoreService, queryScope, refuseExplain, ruledCaller } from '../service.ts'
import { toDocumentResource } from '../writes.ts'

/** `:runQuery`: the rules decide on the query itself (list), before it runs. */
export function runQuery(fs: FirestoreService, c: Ctx, db: DatabaseRef, parent: string, body: Record<string, unknown>) {
  refuseExplain(body)
  const caller = ruledCaller(c)
  fs.guard.list(db, caller, parent, body.structuredQuery)
  const { tx, readTime: at } = fs.consistencyOf(db, body)
  const docs = execute(fs.store, db, parent, body.structuredQuery, at, fs.queryOptions)
  c.get('access').add((recorder) =>
    recorder.firestoreRead(db, caller, c.env.incoming, 'RunQuery', docs, queryScope(parent, body.structuredQuery)),
  )
  const mask = selectMask(body.structuredQuery)
  const readTime = fs.responseTime(at)
  if (at === undefined) for (const doc of docs) tx.state?.reads.set(doc.path, doc.updateTime)
  // Admin needs readTime on every element and at least one element; the id rides on the first.
  const elements: Record<string, unknown>[] =
    docs.length === 0 ? [{ readTime }] : docs.map((doc) => ({ document: toDocumentResource(db, doc, mask), readTime }))
  if (tx.isNew && elements[0]) elements[0].transaction = tx.id
  // The last element says the query is complete (`done`), as the official emulator's does.
  const last = elements.at(-1)
  if (last) last.done = true
  return elements
}
