import type { Ctx } from '../../http/core.ts'
import { ApiError } from '../../http/errors.ts'
import { writeTargets } from '../../security/firestore-guard.ts'
import type { WriteStamp } from '../../store/store.ts'
import type { DatabaseRef } from '../paths.ts'
import { type FirestoreService, ruledCaller } from '../service.ts'
import { applyWrites } from '../writes.ts'

const SERVER: WriteStamp = { writer: 'server', accessSeq: null }

/**
 * Applies writes as the rules decide, with the access-log entries of a client's writes of person
 * data in the same SQLite transaction (ADR 0017): the data and its entries are stored together or
 * not at all, and each document keeps the seq of its entry. Privileged writes are not logged here
 * (the api logs its own).
 */
export function guardedWrites(fs: FirestoreService, c: Ctx, db: DatabaseRef, writes: unknown, method: string) {
  const caller = ruledCaller(c)
  // A full disk refuses writes at once (ADR 0018); a commit without writes stores nothing.
  if (Array.isArray(writes) && writes.length > 0) fs.store.disk?.assertWritable()
  const apply = (stampOf: (path: string) => WriteStamp) => (afterRules?: (() => void)[], commitTime?: bigint) =>
    applyWrites(fs.store, db, writes, stampOf, afterRules, commitTime)
  if (caller.privileged)
    return fs.guard.writes(
      db,
      caller,
      writes,
      apply(() => SERVER),
    )
  const recorder = fs.recorder
  const targets = recorder?.isActive ? writeTargets(db, writes) : []
  return fs.store.transaction(() => {
    const seqOf = new Map<string, number>()
    if (recorder && targets.length > 0) {
      const touched = targets.map(({ path, isDelete }) => ({
        path,
        operation: isDelete
          ? ('delete' as const)
          : fs.store.getDocument(db.project, db.database, path) !== null
            ? ('update' as const)
            : ('create' as const),
      }))
      const entries = recorder.firestoreWriteEntries(db, caller, c.env.incoming, method, touched)
      const seqs = recorder.append(entries.map((entry) => entry.record))
      entries.forEach((entry, index) => {
        const seq = seqs[index]
        if (entry.record.operation !== 'delete' && seq !== undefined)
          for (const path of entry.paths) seqOf.set(path, seq)
      })
    }
    return fs.guard.writes(
      db,
      caller,
      writes,
      apply((path) => ({ writer: 'client', accessSeq: seqOf.get(path) ?? null })),
    )
  })
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
