import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError, invalid } from '../http/errors.ts'
import { readBody, readJson, sendJson } from '../http/server.ts'
import type { Store } from '../store/store.ts'
import { assertDocumentPath, type DatabaseRef, parseDocumentName, parseFieldPath } from './paths.ts'
import { runQuery, selectMask } from './query.ts'
import { compareReferences } from './values.ts'
import { formatTimestamp, getNumber, type Value } from './values-extra.ts'
import { applyWrites, nextCommitTime, toDocumentResource } from './writes.ts'

/** Page size of list documents when the request names none. */
export const LIST_PAGE_SIZE = 300

type TransactionState = { db: DatabaseRef; readOnly: boolean; reads: Map<string, bigint | null> }

/** The Firestore REST v1 surface the official SDKs use, plus the emulator's reset endpoint. */
export function createFirestoreHandler(store: Store) {
  const transactions = new Map<string, TransactionState>()

  function beginTransaction(db: DatabaseRef, options: unknown): string {
    const id = randomBytes(12).toString('base64')
    const readOnly = typeof options === 'object' && options !== null && 'readOnly' in options
    transactions.set(id, { db, readOnly, reads: new Map() })
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

  function batchGet(db: DatabaseRef, body: Record<string, unknown>) {
    if (!Array.isArray(body.documents)) throw invalid('documents must be an array')
    const names = body.documents as unknown[]
    const paths = names.map((name) => parseDocumentName(name, db))
    const mask = (body.mask as { fieldPaths?: string[] } | undefined)?.fieldPaths?.map((path) => parseFieldPath(path))
    const tx = transactionFor(db, body)
    const readTime = formatTimestamp(nextCommitTime())
    return paths.map((path, index) => {
      const doc = store.getDocument(db.project, db.database, path)
      tx.state?.reads.set(path, doc?.updateTime ?? null)
      const element: Record<string, unknown> = doc
        ? { found: toDocumentResource(db, doc, mask), readTime }
        : { missing: names[index], readTime }
      if (tx.isNew && index === 0) element.transaction = tx.id
      return element
    })
  }

  function query(db: DatabaseRef, parent: string, body: Record<string, unknown>) {
    const tx = transactionFor(db, body)
    const docs = runQuery(store, db, parent, body.structuredQuery)
    const mask = selectMask(body.structuredQuery)
    const readTime = formatTimestamp(nextCommitTime())
    for (const doc of docs) tx.state?.reads.set(doc.path, doc.updateTime)
    // Admin needs readTime on every element and at least one element; the id rides on the first.
    const elements: Record<string, unknown>[] =
      docs.length === 0
        ? [{ readTime }]
        : docs.map((doc) => ({ document: toDocumentResource(db, doc, mask), readTime }))
    if (tx.isNew && elements[0]) elements[0].transaction = tx.id
    return elements
  }

  function aggregate(db: DatabaseRef, parent: string, body: Record<string, unknown>) {
    const request = body.structuredAggregationQuery as { aggregations?: unknown; structuredQuery?: unknown } | undefined
    if (typeof request !== 'object' || request === null) throw invalid('structuredAggregationQuery is required')
    if (!Array.isArray(request.aggregations) || request.aggregations.length === 0)
      throw invalid('aggregations are required')
    const docs = runQuery(store, db, parent, request.structuredQuery)
    const aggregateFields: Record<string, Value> = {}
    request.aggregations.forEach((raw: Record<string, unknown>, index: number) => {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('Invalid aggregation')
      const alias = typeof raw.alias === 'string' ? raw.alias : `field_${index + 1}`
      if (raw.count !== undefined) {
        const upTo = Number((raw.count as { upTo?: unknown } | null)?.upTo ?? Number.POSITIVE_INFINITY)
        aggregateFields[alias] = { integerValue: String(Math.min(docs.length, upTo)) }
        return
      }
      const kind = raw.sum !== undefined ? 'sum' : raw.avg !== undefined ? 'avg' : null
      if (kind === null) throw invalid('Unknown aggregation')
      const fieldPath = (raw[kind] as { field?: { fieldPath?: string } } | null)?.field?.fieldPath
      const segments = parseFieldPath(fieldPath)
      const numbers = docs.map((doc) => getNumber(doc.fields, segments)).filter((value) => value !== undefined)
      if (kind === 'avg') {
        aggregateFields[alias] =
          numbers.length === 0
            ? { nullValue: null }
            : { doubleValue: numbers.reduce((sum, n) => sum + n.number, 0) / numbers.length }
        return
      }
      const allIntegers = numbers.every((n) => n.isInteger)
      aggregateFields[alias] = allIntegers
        ? { integerValue: numbers.reduce((sum, n) => sum + BigInt(n.integer ?? '0'), 0n).toString() }
        : { doubleValue: numbers.reduce((sum, n) => sum + n.number, 0) }
    })
    return [{ result: { aggregateFields }, readTime: formatTimestamp(nextCommitTime()) }]
  }

  function commit(db: DatabaseRef, body: Record<string, unknown>) {
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
    return applyWrites(store, db, body.writes)
  }

  function batchWrite(db: DatabaseRef, body: Record<string, unknown>) {
    if (!Array.isArray(body.writes)) throw invalid('writes must be an array')
    const writeResults: Record<string, unknown>[] = []
    const status: Record<string, unknown>[] = []
    for (const write of body.writes) {
      try {
        const result = applyWrites(store, db, [write])
        writeResults.push(result.writeResults[0] ?? {})
        status.push({})
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        writeResults.push({})
        status.push({ code: GRPC_CODES[error.status] ?? 3, message: error.message })
      }
    }
    return { writeResults, status }
  }

  function childCollections(db: DatabaseRef, parent: string): string[] {
    const prefix = parent === '' ? '' : `${parent}/`
    const ids = new Set<string>()
    for (const doc of store.listDocuments(db.project, db.database, { parent, allDescendants: true })) {
      const rest = doc.path.slice(prefix.length)
      ids.add(rest.split('/')[0] as string)
    }
    return [...ids].sort()
  }

  function listDocuments(db: DatabaseRef, parent: string, collectionId: string, url: URL) {
    const prefix = parent === '' ? `${collectionId}/` : `${parent}/${collectionId}/`
    const found = new Map<string, Record<string, unknown>>()
    for (const doc of store.listDocuments(db.project, db.database, { parent, collectionId, allDescendants: false })) {
      found.set(doc.path, toDocumentResource(db, doc))
    }
    if (url.searchParams.get('showMissing') === 'true') {
      for (const doc of store.listDocuments(db.project, db.database, { parent, allDescendants: true })) {
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
    if (/^\/emulator\/v1\/projects\/[^/]+:securityRules$/.test(url.pathname) && req.method === 'PUT') {
      await readBody(req)
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

    if (rpc === null) {
      if (req.method !== 'GET') throw new ApiError('NOT_FOUND', `No route for ${req.method} ${url.pathname}`)
      if (segments.length % 2 === 1) {
        const collectionId = segments[segments.length - 1] as string
        const parent = segments.slice(0, -1).join('/')
        if (parent !== '') assertDocumentPath(parent)
        sendJson(res, 200, listDocuments(db, parent, collectionId, url))
        return true
      }
      const path = segments.join('/')
      assertDocumentPath(path)
      const doc = store.getDocument(db.project, db.database, path)
      if (!doc) throw new ApiError('NOT_FOUND', `Document ${path} not found`)
      sendJson(res, 200, toDocumentResource(db, doc))
      return true
    }
    if (req.method !== 'POST') throw new ApiError('NOT_FOUND', `No route for ${req.method} ${url.pathname}`)
    const parent = segments.join('/')
    if (parent !== '') assertDocumentPath(parent)
    const body = await readJson(req)
    switch (rpc) {
      case 'batchGet':
        sendJson(res, 200, batchGet(db, body))
        return true
      case 'runQuery':
        sendJson(res, 200, query(db, parent, body))
        return true
      case 'runAggregationQuery':
        sendJson(res, 200, aggregate(db, parent, body))
        return true
      case 'commit':
        sendJson(res, 200, commit(db, body))
        return true
      case 'batchWrite':
        sendJson(res, 200, batchWrite(db, body))
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
        sendJson(res, 200, { collectionIds: childCollections(db, parent) })
        return true
      default:
        throw new ApiError('NOT_FOUND', `Unknown method ${rpc}`)
    }
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
