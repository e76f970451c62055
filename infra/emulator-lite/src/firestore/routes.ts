import type { AccessRecorder } from '../audit/recorder.ts'
import { type Ctx, jsonResponse, type Route } from '../http/core.ts'
import { ApiError } from '../http/errors.ts'
import { readJson } from '../http/server.ts'
import { Rulesets } from '../security/rulesets.ts'
import type { Store } from '../store/store.ts'
import type { QueryOptions } from './query.ts'
import { batchGet } from './rpc/batch-get.ts'
import { batchWrite } from './rpc/batch-write.ts'
import { commit } from './rpc/commit.ts'
import { clearDatabase, putSecurityRules } from './rpc/emulator.ts'
import { getDocument } from './rpc/get-document.ts'
import { listCollectionIds } from './rpc/list-collection-ids.ts'
import { listDocuments } from './rpc/list-documents.ts'
import { runAggregationQuery } from './rpc/run-aggregation-query.ts'
import { runQuery } from './rpc/run-query.ts'
import { beginTransaction, rollback } from './rpc/transactions.ts'
import { createFirestoreService, type FirestoreService, parentOf, projectOfRequest, requestTarget } from './service.ts'

export { LIST_PAGE_SIZE } from './rpc/list-documents.ts'

type Rpc = (
  fs: FirestoreService,
  c: Ctx,
  target: ReturnType<typeof requestTarget>,
  body: Record<string, unknown>,
) => unknown

/** The POST RPCs on `…/documents{/parent}:{rpc}`, one file each. */
const RPCS: Record<string, Rpc> = {
  batchGet: (fs, c, { db }, body) => batchGet(fs, c, db, body),
  runQuery: (fs, c, { db, segments }, body) => runQuery(fs, c, db, parentOf(segments), body),
  runAggregationQuery: (fs, c, { db, segments }, body) => runAggregationQuery(fs, c, db, parentOf(segments), body),
  commit: (fs, c, { db }, body) => commit(fs, c, db, body),
  batchWrite: (fs, c, { db }, body) => batchWrite(fs, c, db, body),
  beginTransaction: (fs, c, { db }, body) => beginTransaction(fs, c, db, body),
  rollback: (fs, c, { db }, body) => rollback(fs, c, db, body),
  listCollectionIds: (fs, c, { db, segments }, body) => listCollectionIds(fs, c, db, parentOf(segments), body),
}

const DOCUMENTS = '/v1/projects/:project/databases/:database/:path{documents(?:/.*)?'

/**
 * The Firestore REST v1 surface the official SDKs use, plus the emulator's reset and rule-loading
 * endpoints (management). Every request of a caller without privilege is decided by the project's rules.
 */
export function firestoreRoutes(
  store: Store,
  rulesets = new Rulesets({ firestore: null, storage: null }),
  recorder: AccessRecorder | null = null,
  queryOptions: QueryOptions = {},
): Route[] {
  return firestoreRoutesFor(createFirestoreService(store, rulesets, recorder, queryOptions))
}

/** The same routes over a service the caller keeps (the gRPC transport shares it: one set of transactions). */
export function firestoreRoutesFor(fs: FirestoreService): Route[] {
  const base = { service: 'firestore' as const, project: projectOfRequest }
  // One Hono route for every RPC (matching is per route and runs on every request); the RPC
  // table above picks the file.
  const rpcRoute: Route = {
    ...base,
    name: 'firestore.rpc',
    method: 'POST',
    path: `${DOCUMENTS}:(?:${Object.keys(RPCS).join('|')})}`,
    rules: 'firestore',
    handler: async (c) => {
      const target = requestTarget(c)
      const rpc = target.rpc === null ? undefined : RPCS[target.rpc]
      if (rpc === undefined) throw new ApiError('NOT_FOUND', `Unknown method ${target.rpc}`)
      const body = await readJson(c.env.incoming)
      return jsonResponse(c, 200, rpc(fs, c, target, body))
    },
  }
  return [
    {
      ...base,
      name: 'firestore.getOrListDocuments',
      method: 'GET',
      path: `${DOCUMENTS}}`,
      rules: 'firestore',
      handler: (c) => {
        const { db, segments, rpc } = requestTarget(c)
        if (rpc !== null) throw new ApiError('NOT_FOUND', `No route for GET ${c.get('url').pathname}`)
        c.env.incoming.resume()
        const body = segments.length % 2 === 1 ? listDocuments(fs, c, db, segments) : getDocument(fs, c, db, segments)
        return jsonResponse(c, 200, body)
      },
    },
    rpcRoute,
    {
      ...base,
      name: 'firestore.clearDatabase',
      method: 'DELETE',
      path: '/emulator/v1/projects/:project/databases/:database/:path{documents/?}',
      management: true,
      handler: (c) => jsonResponse(c, 200, clearDatabase(fs, c)),
    },
    {
      ...base,
      name: 'firestore.putSecurityRules',
      method: 'PUT',
      path: '/emulator/v1/projects/:target{[^/]+:securityRules}',
      management: true,
      handler: async (c) => jsonResponse(c, 200, await putSecurityRules(fs, c)),
    },
  ]
}

/** Firestore's emulator answers `GET /` with `Ok`; tools probe it. */
export const firestoreRootRoutes: Route[] = [
  {
    name: 'firestore.root',
    method: 'GET',
    path: '/',
    service: 'firestore',
    handler: (c) => c.text('Ok'),
  },
]
