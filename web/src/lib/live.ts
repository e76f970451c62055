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
import { getFirebase } from './firebase.ts'
import { firestoreEndpoint } from './firestore.ts'
import { buildQuery, type QuerySpec } from './query-spec.ts'

// The full Firestore SDK (listeners over WebChannel). This module is imported on demand only
// (lib/live-query.ts), once a page has its first data: its named imports let the bundler leave out
// what is not used (persistence, transactions, aggregation …).
const kit = { collection, collectionGroup, query, where, orderBy, startAfter, limit, documentId }

let db: Promise<Firestore> | null = null

/**
 * The full SDK's Firestore, beside Firestore Lite on the same app and Auth (docs/decisions/0032-live-pages.md):
 * Lite reads a page's data first, this keeps it current. Its cache is in memory only, so nothing of a
 * session is left on a shared tablet once the tab is closed or the user signs out.
 */
function getLiveDb(): Promise<Firestore> {
  if (db !== null) return db
  db = (async () => {
    const firebase = getFirebase()
    if (firebase === null) throw new Error('Firebase is not configured')
    const endpoint = firestoreEndpoint()
    const firestore = initializeFirestore(firebase.app, {
      localCache: memoryLocalCache(),
      // A pilot's HTTPS origin: Firestore's streams on that origin, over TLS.
      ...(endpoint?.ssl ? { host: endpoint.host, ssl: true } : {}),
    })
    if (endpoint && !endpoint.ssl) connectFirestoreEmulator(firestore, endpoint.hostname, endpoint.port)
    await firebase.auth.authStateReady()
    return firestore
  })()
  db.catch(() => {
    db = null
  })
  return db
}

/** What a listener hears: the documents the query matches now, and whether this is its first snapshot. */
export type Heard = { docs: readonly QueryDocumentSnapshot[]; isFirst: boolean }

/**
 * Listens to `spec` until the returned function is called: `onDocs` gets every snapshot from the
 * server (the cache's own echoes are not passed on), `onError` the end of a listener the rules refuse.
 */
export async function listen(
  spec: QuerySpec,
  onDocs: (heard: Heard) => void,
  onError: (error: Error) => void,
): Promise<() => void> {
  const firestore = await getLiveDb()
  let isFirst = true
  return onSnapshot(
    buildQuery<Firestore, Query, QueryConstraint, FieldPath>(kit, firestore, spec),
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
  if (db === null) return
  const ending = db
  db = null
  const firestore = await ending.catch(() => null)
  if (firestore !== null) await terminate(firestore)
}
