import { randomBytes } from 'node:crypto'
import type { AccessRecorder } from '../audit/recorder.ts'
import type { Ctx } from '../http/core.ts'
import { ApiError, invalid } from '../http/errors.ts'
import type { Caller } from '../security/caller.ts'
import { createFirestoreGuard } from '../security/firestore-guard.ts'
import type { Rulesets } from '../security/rulesets.ts'
import { HISTORY_WINDOW_NANOS, type Store } from '../store/store.ts'
import { assertDocumentPath, type DatabaseRef } from './paths.ts'
import type { QueryOptions } from './query.ts'
import { parseTimestamp } from './values.ts'
import { formatTimestamp } from './values-extra.ts'
import { latestCommitTime, nextCommitTime } from './writes.ts'

export type TransactionState = {
  db: DatabaseRef
  readOnly: boolean
  /** A read-only transaction may read at a fixed time in the past. */
  readTime?: bigint
  reads: Map<string, bigint | null>
}

/** A `readTime` (RFC 3339, or `{seconds, nanos}`) within the history window, in nanoseconds. */
export function parseReadTime(raw: unknown): bigint {
  let nanos: bigint
  if (typeof raw === 'object' && raw !== null && 'seconds' in raw) {
    const { seconds, nanos: fraction } = raw as { seconds?: unknown; nanos?: unknown }
    if (!/^-?\d+$/.test(String(seconds)) || !/^\d*$/.test(String(fraction ?? ''))) throw invalid('Invalid read_time')
    nanos = BigInt(String(seconds)) * 1_000_000_000n + BigInt(String(fraction ?? '0') || '0')
  } else nanos = parseTimestamp(raw)
  if (nanos > latestCommitTime()) throw invalid('read_time cannot be in the future')
  if (nanos < BigInt(Date.now()) * 1_000_000n - HISTORY_WINDOW_NANOS)
    throw new ApiError('FAILED_PRECONDITION', 'The requested snapshot version is too old.')
  return nanos
}

export function refuseExplain(body: Record<string, unknown>): void {
  if (body.explainOptions !== undefined)
    throw new ApiError('UNIMPLEMENTED', 'explainOptions (query explain) is not supported by emulator-lite')
}

/** The caller, marked as one the rules decided for (the rules middleware fails a route that forgot). */
export function ruledCaller(c: Ctx): Caller {
  c.set('rulesDecided', true)
  return c.get('caller')
}

const decode = (segment: string) => (segment.includes('%') ? decodeURIComponent(segment) : segment)

/** The database and document path of a Firestore REST route: `/v1/projects/{p}/databases/{d}/documents{/path}{:rpc}`. */
export function requestTarget(c: Ctx): { db: DatabaseRef; segments: string[]; rpc: string | null } {
  const match = /^\/v1\/projects\/([^/]+)\/databases\/([^/]+)\/documents(.*)$/.exec(c.get('url').pathname)
  if (!match) throw new ApiError('NOT_FOUND', `No route for ${c.req.method} ${c.get('url').pathname}`)
  let db: DatabaseRef
  let segments: string[]
  let rest = match[3] ?? ''
  let rpc: string | null = null
  // `…/documents:commit` or `…/documents/users/alice:runQuery`: the rpc follows the last colon of the last segment.
  const colon = rest.lastIndexOf(':')
  if (colon >= 0 && !rest.slice(colon).includes('/')) {
    rpc = rest.slice(colon + 1)
    rest = rest.slice(0, colon)
  }
  try {
    db = { project: decode(match[1] as string), database: decode(match[2] as string) }
    segments = rest === '' ? [] : rest.split('/').filter(Boolean).map(decode)
  } catch {
    throw invalid('Malformed path encoding')
  }
  return { db, segments, rpc }
}

/** The project of a Firestore route, for the identity middleware (whose ID tokens it accepts). */
export function projectOfRequest(c: Ctx): string {
  const match = /^\/(?:emulator\/)?v1\/projects\/([^/:]+)/.exec(c.get('url').pathname)
  try {
    return decodeURIComponent(match?.[1] ?? '')
  } catch {
    return ''
  }
}

/** The parent path of an RPC (the segments before the colon), checked to name a document. */
export function parentOf(segments: string[]): string {
  const parent = segments.join('/')
  if (parent !== '') assertDocumentPath(parent)
  return parent
}

/** State the Firestore RPCs share: the store, the rules, open transactions. */
export function createFirestoreService(
  store: Store,
  rulesets: Rulesets,
  recorder: AccessRecorder | null,
  /** The query engine's options (a planted difference, for the parity harness's own test only). */
  queryOptions: QueryOptions = {},
) {
  const transactions = new Map<string, TransactionState>()
  const guard = createFirestoreGuard(store, rulesets)

  function beginTransaction(db: DatabaseRef, options: unknown): string {
    if (typeof options !== 'object' || options === null) throw invalid('Invalid transaction options')
    const readOnly = 'readOnly' in options
    const rawReadTime = readOnly ? (options.readOnly as { readTime?: unknown } | null)?.readTime : undefined
    const readTime = rawReadTime === undefined ? undefined : parseReadTime(rawReadTime)
    const id = randomBytes(12).toString('base64')
    transactions.set(id, { db, readOnly, readTime, reads: new Map() })
    return id
  }

  function transactionFor(
    db: DatabaseRef,
    body: Record<string, unknown>,
  ): { id?: string; state?: TransactionState; isNew: boolean } {
    if (body.newTransaction !== undefined) {
      const id = beginTransaction(db, body.newTransaction)
      return { id, state: transactions.get(id), isNew: true }
    }
    if (body.transaction !== undefined) {
      const id = String(body.transaction)
      const state = transactions.get(id)
      if (!state) throw new ApiError('INVALID_ARGUMENT', 'Transaction is not valid or has expired')
      return { id, state, isNew: false }
    }
    return { isNew: false }
  }

  return {
    store,
    queryOptions,
    rulesets,
    guard,
    recorder,
    transactions,
    beginTransaction,
    /** The request's transaction, and the time it reads at (undefined: now). */
    consistencyOf(db: DatabaseRef, body: Record<string, unknown>) {
      const selectors = ['transaction', 'newTransaction', 'readTime'].filter((key) => body[key] !== undefined)
      if (selectors.length > 1) throw invalid(`Only one of ${selectors.join(', ')} may be set`)
      const tx = transactionFor(db, body)
      const readTime = body.readTime !== undefined ? parseReadTime(body.readTime) : tx.state?.readTime
      return { tx, readTime }
    },
    responseTime: (readTime: bigint | undefined) => formatTimestamp(readTime ?? nextCommitTime()),
  }
}

export type FirestoreService = ReturnType<typeof createFirestoreService>

/** The collection a query reads, for its access-log entries. */
export function queryScope(parent: string, structuredQuery: unknown) {
  const from = (structuredQuery as { from?: { collectionId?: unknown; allDescendants?: unknown }[] } | undefined)
    ?.from?.[0]
  return {
    parent,
    collectionId: typeof from?.collectionId === 'string' ? from.collectionId : '',
    allDescendants: from?.allDescendants === true,
  }
}

export const GRPC_CODES: Record<string, number> = {
  INVALID_ARGUMENT: 3,
  FAILED_PRECONDITION: 9,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  ABORTED: 10,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
}
