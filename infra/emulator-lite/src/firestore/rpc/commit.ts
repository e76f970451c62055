import type { Ctx } from '../../http/core.ts'
import { ApiError } from '../../http/errors.ts'
import { writeTargets } from '../../security/firestore-guard.ts'
import type { DatabaseRef } from '../paths.ts'
import { type FirestoreService, ruledCaller } from '../service.ts'
import { applyWrites } from '../writes.ts'

/** Applies writes as the rules decide, and queues the access-log entries of person data. */
export function guardedWrites(fs: FirestoreService, c: Ctx, db: DatabaseRef, writes: unknown, method: string) {
  const caller = ruledCaller(c)
  const targets = fs.recorder?.isActive && !caller.privileged ? writeTargets(db, writes) : []
  const existed = targets.map(({ path }) => fs.store.getDocument(db.project, db.database, path) !== null)
  const result = fs.guard.writes(db, caller, writes, (afterRules) => applyWrites(fs.store, db, writes, afterRules))
  if (targets.length > 0) {
    const touched = targets.map(({ path, isDelete }, index) => ({
      path,
      operation: isDelete ? ('delete' as const) : existed[index] ? ('update' as const) : ('create' as const),
    }))
    c.get('access').add((recorder) => recorder.firestoreWrites(db, caller, c.env.incoming, method, touched))
  }
  return result
}

/** `:commit`: a transaction's reads must be unchanged; then every write or none. */
export function commit(fs: FirestoreService, c: Ctx, db: DatabaseRef, body: Record<string, unknown>) {
  if (body.transaction !== undefined) {
    const id = String(body.transaction)
    const state = fs.transactions.get(id)
    fs.transactions.delete(id)
    if (!state) throw new ApiError('INVALID_ARGUMENT', 'Transaction is not valid or has expired')
    for (const [path, version] of state.reads) {
      const current = fs.store.getDocument(db.project, db.database, path)?.updateTime ?? null
      if (current !== version)
        throw new ApiError('ABORTED', 'Transaction lock timeout or contention; retry the transaction')
    }
  }
  return guardedWrites(fs, c, db, body.writes, 'Commit')
}
