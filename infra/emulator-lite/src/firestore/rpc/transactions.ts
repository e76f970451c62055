import type { Ctx } from '../../http/core.ts'
import { invalid } from '../../http/errors.ts'
import type { DatabaseRef } from '../paths.ts'
import type { FirestoreService } from '../service.ts'

/** `:beginTransaction`: reads nothing, so no rules decision. */
export function beginTransaction(fs: FirestoreService, c: Ctx, db: DatabaseRef, body: Record<string, unknown>) {
  c.set('rulesDecided', true)
  const options = (body.options as Record<string, unknown> | undefined) ?? { readWrite: {} }
  return { transaction: fs.beginTransaction(db, options) }
}

/** `:rollback`: forgets a transaction. */
export function rollback(fs: FirestoreService, c: Ctx, _db: DatabaseRef, body: Record<string, unknown>) {
  c.set('rulesDecided', true)
  if (typeof body.transaction !== 'string') throw invalid('transaction is required')
  fs.transactions.delete(body.transaction)
  return {}
}
