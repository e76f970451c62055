import type { Ctx } from '../../http/core.ts'
import { ApiError, invalid } from '../../http/errors.ts'
import { diskFullApiError, isDiskFullError } from '../../store/disk-state.ts'
import type { DatabaseRef } from '../paths.ts'
import { type FirestoreService, GRPC_CODES } from '../service.ts'
import { guardedWrites } from './commit.ts'

/** `:batchWrite`: each write stands alone, its rules decision included. */
export function batchWrite(fs: FirestoreService, c: Ctx, db: DatabaseRef, body: Record<string, unknown>) {
  if (!Array.isArray(body.writes)) throw invalid('writes must be an array')
  const writeResults: Record<string, unknown>[] = []
  const status: Record<string, unknown>[] = []
  c.set('rulesDecided', true)
  for (const write of body.writes) {
    try {
      const result = guardedWrites(fs, c, db, [write], 'BatchWrite')
      // A delete leaves no version behind, so production sends no updateTime for it.
      const isDelete = typeof write === 'object' && write !== null && 'delete' in write
      writeResults.push(isDelete ? {} : (result.writeResults[0] ?? {}))
      status.push({})
    } catch (caught) {
      // A write that found no room is that write's RESOURCE_EXHAUSTED: the ones before it are stored.
      const disk = fs.store.disk
      const error =
        !(caught instanceof ApiError) && (disk ? disk.notice(caught) : isDiskFullError(caught))
          ? diskFullApiError()
          : caught
      if (!(error instanceof ApiError)) throw error
      writeResults.push({})
      status.push({ code: GRPC_CODES[error.status] ?? 3, message: error.message })
    }
  }
  return { writeResults, status }
}
