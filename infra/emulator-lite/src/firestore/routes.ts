import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AccessRecorder } from '../audit/recorder.ts'
import { ApiError, invalid } from '../http/errors.ts'
import { readJson, sendJson } from '../http/server.ts'
import { type Caller, callerOf } from '../security/caller.ts'
import { createFirestoreGuard, writeTargets } from '../security/firestore-guard.ts'
import { Rulesets } from '../security/rulesets.ts'
import { HISTORY_WINDOW_NANOS, type Store } from '../store/store.ts'
import { assertDocumentPath, assertNotReserved, type DatabaseRef, parseDocumentName, parseFieldPath } from './paths.ts'
import { type QueryOptions, runQuery, selectMask } from './query.ts'
import { compareReferences, doubleValue, INT64_MAX, INT64_MIN, parseTimestamp } from './values.ts'
import { formatTimestamp, getNumber, type Value } from './values-extra.ts'
import { applyWrites, latestCommitTime, nextCommitTime, toDocumentResource } from './writes.ts'

/** Page size of list documents when the request names none. */
export const LIST_PAGE_SIZE = 300

/** Production's limit on aggregations in one runAggregationQuery. */
const MAX_AGGREGATIONS = 5

type TransactionState = {
  db: DatabaseRef
  readOnly: boolean
  /** A read-only transaction may read at a fixed time in the past. */
  readTime?: bigint
  reads: Map<string, bigint | null>
}

/** A `readTime` (RFC 3339, or `{seconds, nanos}`) within the history window, in nanoseconds. */
function parseReadTime(raw: unknown): bigint {
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

function refuseExplain(body: Record<string, unknown>): void {
  if (body.explainOptions !== undefined)
    throw new ApiError('UNIMPLEMENTED', 'explainOptions (query explain) is not supported by emulator-lite')
}

/**
 * The Firestore REST v1 surface the official SDKs use, plus the emulator's reset and rule-loading
 * endpoints. Every request without the owner credential is decided by the project's security rules.
 */
export function createFirestoreHandler(
  store: Store,
  rulesets = new Rulesets({ firestore: null, storage: null }),
  recorder: AccessRecorder | null = null,
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

  /** The request's transaction, and the time it reads at (undefined: now). */
  function consistencyOf(db: DatabaseRef, body: Record<string, unknown>) {
    const selectors = ['transaction', 'newTransaction', 'readTime'].filter((key) => body[key] !== undefined)
    if (selectors.length > 1) throw invalid(`Only one of ${selectors.join(', ')} may be set`)
    const tx = transactionFor(db, body)
    const readTime = body.readTime !== undefined ? parseReadTime(body.readTime) : tx.state?.readTime
    return { tx, readTime }
  }

  const responseTime = (readTime: bigint | undefined) => formatTimestamp(readTime ?? nextCommitTime())

  function batchGet(db: DatabaseRef, body: Record<string, unknown>, caller: Caller, req: IncomingMessage) {
    if (!Array.isArray(body.documents)) throw invalid('documents must be an array')
    const names = body.documents as unknown[]
    const paths = names.map((name) => parseDocumentName(name, db))
    const mask = (body.mask as { fieldPaths?: string[] } | undefined)?.fieldPaths?.map((path) => parseFieldPath(path))
    const { tx, readTime: at } = consistencyOf(db, body)
    const readTime = responseTime(at)
    const docs = paths.map((path) =>
      at === undefined
        ? store.getDocument(db.project, db.database, path)
        : store.getDocumentAt(db.project, db.database, path, at),
    )
    // Every document must be readable, found or not, before any is sent.
    paths.forEach((path, index) => {
      guard.get(db, caller, path, docs[index]?.fields ?? null)
    })
    recorder?.firestoreRead(
      db,
      caller,
      req,
      'BatchGetDocuments',
      docs.filter((doc) => doc !== null),
    )
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

  function query(db: DatabaseRef, parent: string, body: Record<string, unknown>, caller: Caller, req: IncomingMessage) {
    refuseExplain(body)
    guard.list(db, caller, parent, body.structuredQuery)
    const { tx, readTime: at } = consistencyOf(db, body)
    const docs = runQuery(store, db, parent, body.structuredQuery, at, queryOptions)
    recorder?.firestoreRead(db, caller, req, 'RunQuery', docs, queryScope(parent, body.structuredQuery))
    const mask = selectMask(body.structuredQuery)
    const readTime = responseTime(at)
    if (at === undefined) for (const doc of docs) tx.state?.reads.set(doc.path, doc.updateTime)
    // Admin needs readTime on every element and at least one element; the id rides on the first.
    const elements: Record<string, unknown>[] =
      docs.length === 0
        ? [{ readTime }]
        : docs.map((doc) => ({ document: toDocumentResource(db, doc, mask), readTime }))
    if (tx.isNew && elements[0]) elements[0].transaction = tx.id
    return elements
  }

  function aggregate(
    db: DatabaseRef,
    parent: string,
    body: Record<string, unknown>,
    caller: Caller,
    req: IncomingMessage,
  ) {
    refuseExplain(body)
    const request = body.structuredAggregationQuery as { aggregations?: unknown; structuredQuery?: unknown } | undefined
    if (typeof request !== 'object' || request === null) throw invalid('structuredAggregationQuery is required')
    if (!Array.isArray(request.aggregations) || request.aggregations.length === 0)
      throw invalid('aggregations are required')
    if (request.aggregations.length > MAX_AGGREGATIONS)
      throw invalid(`A query can have at most ${MAX_AGGREGATIONS} aggregations`)
    const aggregations = request.aggregations.map((raw: unknown, index: number) => {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('Invalid aggregation')
      const spec = raw as Record<string, unknown>
      const alias = typeof spec.alias === 'string' ? spec.alias : `field_${index + 1}`
      if (spec.count !== undefined) {
        const upTo = Number((spec.count as { upTo?: unknown } | null)?.upTo ?? Number.POSITIVE_INFINITY)
        return { alias, kind: 'count' as const, upTo, segments: [] as string[] }
      }
      const kind = spec.sum !== undefined ? 'sum' : spec.avg !== undefined ? 'avg' : null
      if (kind === null) throw invalid('Unknown aggregation')
      const fieldPath = (spec[kind] as { field?: { fieldPath?: string } } | null)?.field?.fieldPath
      return { alias, kind, upTo: 0, segments: parseFieldPath(fieldPath) }
    })
    guard.list(db, caller, parent, request.structuredQuery)
    const { tx, readTime: at } = consistencyOf(db, body)
    // Firestore aggregates only the documents that have every field a sum or avg of the request names.
    const required = aggregations.filter((aggregation) => aggregation.kind !== 'count')
    // Before the query's offset and limit, as the official emulator does (the differential).
    const docs = runQuery(store, db, parent, request.structuredQuery, at, {
      ...queryOptions,
      mustHave: required.map((aggregation) => aggregation.segments),
    })
    if (at === undefined) for (const doc of docs) tx.state?.reads.set(doc.path, doc.updateTime)
    recorder?.firestoreRead(db, caller, req, 'RunAggregationQuery', docs, queryScope(parent, request.structuredQuery))
    const aggregateFields: Record<string, Value> = {}
    for (const { alias, kind, upTo, segments } of aggregations) {
      if (kind === 'count') {
        aggregateFields[alias] = { integerValue: String(Math.min(docs.length, upTo)) }
        continue
      }
      const numbers = docs.map((doc) => getNumber(doc.fields, segments)).filter((value) => value !== undefined)
      const total = numbers.reduce((sum, n) => sum + n.number, 0)
      if (kind === 'avg') {
        aggregateFields[alias] = numbers.length === 0 ? { nullValue: null } : doubleValue(total / numbers.length)
        continue
      }
      const integerSum = numbers.every((n) => n.isInteger)
        ? numbers.reduce((sum, n) => sum + BigInt(n.integer ?? '0'), 0n)
        : null
      // An integer sum that leaves int64 becomes a double, as in production.
      aggregateFields[alias] =
        integerSum !== null && integerSum <= INT64_MAX && integerSum >= INT64_MIN
          ? { integerValue: integerSum.toString() }
          : doubleValue(total)
    }
    const element: Record<string, unknown> = { result: { aggregateFields }, readTime: responseTime(at) }
    if (tx.isNew) element.transaction = tx.id
    return [element]
  }

  /** Applies writes as the rules decide, then records those of person data (before the reply). */
  function guardedWrites(db: DatabaseRef, caller: Caller, req: IncomingMessage, writes: unknown, method: string) {
    const targets = recorder?.isActive && !caller.privileged ? writeTargets(db, writes) : []
    const existed = targets.map(({ path }) => store.getDocument(db.project, db.database, path) !== null)
    const result = guard.writes(db, caller, writes, () => applyWrites(store, db, writes))
    if (targets.length > 0)
      recorder?.firestoreWrites(
        db,
        caller,
        req,
        method,
        targets.map(({ path, isDelete }, index) => ({
          path,
          operation: isDelete ? 'delete' : existed[index] ? 'update' : 'create',
        })),
      )
    return result
  }

  function commit(db: DatabaseRef, body: Record<string, unknown>, caller: Caller, req: IncomingMessage) {
    if (body.transaction !== undefined) {
      const id = String(body.transaction)
      const state = transactions.get(id)
      transactions.delete(id)
      if (!state) throw new ApiError('INVALID_ARGUMENT', 'Transaction is not valid or has expired')
      for (const [path, version] of state.reads) {
        const current = store.getDocument(db.project, db.database, path)?.updateTime ?? null
        if (current !== version)
          throw new ApiError('ABORTED', 'Transaction lock timeout or contention; retry the transaction')
      }
    }
    return guardedWrites(db, caller, req, body.writes, 'Commit')
  }

  function batchWrite(db: DatabaseRef, body: Record<string, unknown>, caller: Caller, req: IncomingMessage) {
    if (!Array.isArray(body.writes)) throw invalid('writes must be an array')
    const writeResults: Record<string, unknown>[] = []
    const status: Record<string, unknown>[] = []
    for (const write of body.writes) {
      try {
        // Each write stands alone, its rules decision included.
        const result = guardedWrites(db, caller, req, [write], 'BatchWrite')
        // A delete leaves no version behind, so production sends no updateTime for it.
        const isDelete = typeof write === 'object' && write !== null && 'delete' in write
        writeResults.push(isDelete ? {} : (result.writeResults[0] ?? {}))
        status.push({})
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        writeResults.push({})
        status.push({ code: GRPC_CODES[error.status] ?? 3, message: error.message })
      }
    }
    return { writeResults, status }
  }

  function childCollections(db: DatabaseRef, parent: string, readTime?: bigint): string[] {
    const prefix = parent === '' ? '' : `${parent}/`
    const ids = new Set<string>()
    const scope = { parent, allDescendants: true }
    const docs =
      readTime === undefined
        ? store.listDocuments(db.project, db.database, scope)
        : store.listDocumentsAt(db.project, db.database, scope, readTime)
    for (const doc of docs) {
      const rest = doc.path.slice(prefix.length)
      ids.add(rest.split('/')[0] as string)
    }
    return [...ids].sort()
  }

  function listDocuments(db: DatabaseRef, parent: string, collectionId: string, url: URL) {
    assertNotReserved(collectionId)
    const rawReadTime = url.searchParams.get('readTime')
    const readTime = rawReadTime === null ? undefined : parseReadTime(rawReadTime)
    const documentsIn = (scope: { parent: string; collectionId?: string; allDescendants: boolean }) =>
      readTime === undefined
        ? store.listDocuments(db.project, db.database, scope)
        : store.listDocumentsAt(db.project, db.database, scope, readTime)
    const prefix = parent === '' ? `${collectionId}/` : `${parent}/${collectionId}/`
    const found = new Map<string, Record<string, unknown>>()
    for (const doc of documentsIn({ parent, collectionId, allDescendants: false })) {
      found.set(doc.path, toDocumentResource(db, doc))
    }
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
    return {
      documents: page.map(([, doc]) => doc),
      ...(rest.length > pageSize && last ? { nextPageToken: Buffer.from(last, 'utf8').toString('base64url') } : {}),
    }
  }

  return async function handle(req: IncomingMessage, url: URL, res: ServerResponse): Promise<boolean> {
    const emulatorReset = /^\/emulator\/v1\/projects\/([^/]+)\/databases\/([^/]+)\/documents\/?$/.exec(url.pathname)
    if (emulatorReset && req.method === 'DELETE') {
      store.clearDatabase(
        decodeURIComponent(emulatorReset[1] as string),
        decodeURIComponent(emulatorReset[2] as string),
      )
      sendJson(res, 200, {})
      return true
    }
    const securityRules = /^\/emulator\/v1\/projects\/([^/]+):securityRules$/.exec(url.pathname)
    if (securityRules && req.method === 'PUT') {
      rulesets.setFromRequest('cloud.firestore', await readJson(req), decodeURIComponent(securityRules[1] as string))
      sendJson(res, 200, {})
      return true
    }
    const match = /^\/v1\/projects\/([^/]+)\/databases\/([^/]+)\/documents(.*)$/.exec(url.pathname)
    if (!match) return false
    const db: DatabaseRef = {
      project: decodeURIComponent(match[1] as string),
      database: decodeURIComponent(match[2] as string),
    }
    let rest = match[3] ?? ''
    if (rest !== '' && !rest.startsWith('/') && !rest.startsWith(':')) return false
    // `…/documents:commit` or `…/documents/users/alice:runQuery`: the rpc follows the last colon of the last segment.
    let rpc: string | null = null
    const colon = rest.lastIndexOf(':')
    if (colon >= 0 && !rest.slice(colon).includes('/')) {
      rpc = rest.slice(colon + 1)
      rest = rest.slice(0, colon)
    }
    let segments: string[]
    try {
      segments = rest.split('/').filter(Boolean).map(decodeURIComponent)
    } catch {
      throw invalid('Malformed path encoding')
    }
    const caller = callerOf(req)

    if (rpc === null) {
      if (req.method !== 'GET') throw new ApiError('NOT_FOUND', `No route for ${req.method} ${url.pathname}`)
      if (segments.length % 2 === 1) {
        const collectionId = segments[segments.length - 1] as string
        const parent = segments.slice(0, -1).join('/')
        if (parent !== '') assertDocumentPath(parent)
        guard.list(db, caller, parent, { from: [{ collectionId }] })
        const listed = listDocuments(db, parent, collectionId, url)
        recorder?.firestoreRead(
          db,
          caller,
          req,
          'ListDocuments',
          listed.documents.flatMap((doc) =>
            typeof doc.name === 'string' ? [{ path: parseDocumentName(doc.name, db) }] : [],
          ),
          { parent, collectionId, allDescendants: false },
        )
        sendJson(res, 200, listed)
        return true
      }
      const path = segments.join('/')
      assertDocumentPath(path)
      const rawReadTime = url.searchParams.get('readTime')
      const doc =
        rawReadTime === null
          ? store.getDocument(db.project, db.database, path)
          : store.getDocumentAt(db.project, db.database, path, parseReadTime(rawReadTime))
      guard.get(db, caller, path, doc?.fields ?? null)
      if (!doc) throw new ApiError('NOT_FOUND', `Document ${path} not found`)
      recorder?.firestoreRead(db, caller, req, 'GetDocument', [doc])
      sendJson(res, 200, toDocumentResource(db, doc))
      return true
    }
    if (req.method !== 'POST') throw new ApiError('NOT_FOUND', `No route for ${req.method} ${url.pathname}`)
    const parent = segments.join('/')
    if (parent !== '') assertDocumentPath(parent)
    const body = await readJson(req)
    switch (rpc) {
      case 'batchGet':
        sendJson(res, 200, batchGet(db, body, caller, req))
        return true
      case 'runQuery':
        sendJson(res, 200, query(db, parent, body, caller, req))
        return true
      case 'runAggregationQuery':
        sendJson(res, 200, aggregate(db, parent, body, caller, req))
        return true
      case 'commit':
        sendJson(res, 200, commit(db, body, caller, req))
        return true
      case 'batchWrite':
        sendJson(res, 200, batchWrite(db, body, caller, req))
        return true
      case 'beginTransaction': {
        const options = (body.options as Record<string, unknown> | undefined) ?? { readWrite: {} }
        sendJson(res, 200, { transaction: beginTransaction(db, options) })
        return true
      }
      case 'rollback':
        if (typeof body.transaction !== 'string') throw invalid('transaction is required')
        transactions.delete(body.transaction)
        sendJson(res, 200, {})
        return true
      case 'listCollectionIds':
        guard.privilegedOnly(db, caller)
        sendJson(res, 200, {
          collectionIds: childCollections(
            db,
            parent,
            body.readTime === undefined ? undefined : parseReadTime(body.readTime),
          ),
        })
        return true
      default:
        throw new ApiError('NOT_FOUND', `Unknown method ${rpc}`)
    }
  }
}

/** The collection a query reads, for its access-log entries. */
function queryScope(parent: string, structuredQuery: unknown) {
  const from = (structuredQuery as { from?: { collectionId?: unknown; allDescendants?: unknown }[] } | undefined)
    ?.from?.[0]
  return {
    parent,
    collectionId: typeof from?.collectionId === 'string' ? from.collectionId : '',
    allDescendants: from?.allDescendants === true,
  }
}

const GRPC_CODES: Record<string, number> = {
  INVALID_ARGUMENT: 3,
  FAILED_PRECONDITION: 9,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  ABORTED: 10,
  PERMISSION_DENIED: 7,
}
