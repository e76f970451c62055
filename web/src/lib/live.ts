import {
  collection,
  collectionGroup,
  connectFirestoreEmulator,
  documentId,
  type FieldPath,
  type Firestore,
  initializeFirestore,
  limit,
  memoryLocalCache,
  onSnapshot,
  orderBy,
  type Query,
  type QueryConstraint,
  type QueryDocumentSnapshot,
  query,
  startAfter,
  terminate,
  where,
} from 'firebase/firestore'
import { firestoreOnce } from './firestore.ts'
import { buildQuery, type QuerySpec } from './query-spec.ts'

// The full Firestore SDK (listeners over WebChannel). This module is imported on demand only
// (lib/live-query.ts), once a page has its first data: its named imports let the bundler leave out
// what is not used (persistence, transactions, aggregation …).
const kit = { collection, collectionGroup, query, where, orderBy, startAfter, limit, documentId }

/**
 * The full SDK's Firestore, beside Firestore Lite on the same app and Auth (docs/decisions/0032-live-pages.md):
 * Lite reads a page's data first, this keeps it current. Its cache is in memory only, so nothing of a
 * session is left on a shared tablet once the tab is closed or the user signs out.
 */
const live = firestoreOnce((firebase, endpoint) => {
  const firestore = initializeFirestore(firebase.app, {
    localCache: memoryLocalCache(),
    // A pilot's HTTPS origin: Firestore's streams on that origin, over TLS.
    ...(endpoint?.ssl ? { host: endpoint.host, ssl: true } : {}),
  })
  if (endpoint && !endpoint.ssl) connectFirestoreEmulator(firestore, endpoint.hostname, endpoint.port)
  return firestore
})

/** What a listener hears: the documents the query matches now, and whether this is its first snapshot. */
export type Heard = { docs: readonly QueryDocumentSnapshot[]; isFirst: boolean }

/**
 * Listens to `spec` until the returned function is called: `onDocs` gets every snapshot that is in
 * step with the server, `onError` the end of a listener the rules refuse.
 *
 * Snapshots from the cache are not passed on, and metadata changes are asked for. When two listeners
 * overlap and a snapshot is raised while a new document has reached only one of them, the other's
 * view comes from the cache. The server's confirmation then changes only `fromCache`, which without
 * metadata changes is never raised. Seen on the pilot (test-pilot): Min dag's two listeners on the
 * person's registrations, and the day's kept showing no answer. emulator-lite no longer sends such
 * in-between snapshots (ADR 0029); a backend still may.
 */
export async function listen(
  spec: QuerySpec,
  onDocs: (heard: Heard) => void,
  onError: (error: Error) => void,
): Promise<() => void> {
  const firestore = await live.get()
  let isFirst = true
  return onSnapshot(
    buildQuery<Firestore, Query, QueryConstraint, FieldPath>(kit, firestore, spec),
    { includeMetadataChanges: true },
    (snapshot) => {
      if (snapshot.metadata.fromCache) return
      onDocs({ docs: snapshot.docs, isFirst })
      isFirst = false
    },
    onError,
  )
}

/** At sign-out: ends every listener and drops the SDK's cache. */
export async function endLive(): Promise<void> {
  const firestore = await live.forget()?.catch(() => null)
  if (firestore) await terminate(firestore)
}
