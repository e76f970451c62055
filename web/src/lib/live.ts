import {
  clearIndexedDbPersistence,
  collection,
  collectionGroup,
  connectFirestoreEmulator,
  type DocumentReference,
  deleteField,
  doc,
  documentId,
  type FieldPath,
  type Firestore,
  getDocFromCache,
  initializeFirestore,
  limit,
  onSnapshot,
  orderBy,
  persistentLocalCache,
  persistentMultipleTabManager,
  type Query,
  type QueryConstraint,
  type QueryDocumentSnapshot,
  query,
  setDoc,
  startAfter,
  terminate,
  updateDoc,
  waitForPendingWrites,
  where,
} from 'firebase/firestore'
import { cacheOwner, setCacheOwner } from './device-cache.ts'
import { getFirebase } from './firebase.ts'
import { firestoreOnce } from './firestore.ts'
import { buildQuery, type QuerySpec } from './query-spec.ts'
import { reportError } from './report-error.ts'
import { within } from './within.ts'
import { forgetWriteStates, heardDocument } from './write-state.ts'

// The full Firestore SDK (listeners over WebChannel, writes kept on the device). This module is
// imported on demand only: by lib/live-query.ts once a page has its first data, and by the care
// writes (lib/kept-writes.ts). Its named imports let the bundler leave out what is not used
// (transactions, aggregation …).
const kit = { collection, collectionGroup, query, where, orderBy, startAfter, limit, documentId }

/**
 * The full SDK's Firestore, beside Firestore Lite on the same app and Auth (docs/decisions/0032-live-pages.md):
 * Lite reads a page's data first, this keeps it current. Its cache is persistent (IndexedDB, shared by
 * the app's tabs), so a registration or diary entry saved without a connection is kept on the device
 * until the backend has it (docs/decisions/0033-offline-writes.md). On a shared tablet, the cache is
 * cleared at sign-out and before another user's first use.
 */
const live = firestoreOnce(async (firebase, endpoint) => {
  const firestore = initializeFirestore(firebase.app, {
    localCache: persistentLocalCache({ tabManager: persistentMultipleTabManager() }),
    // A pilot's HTTPS origin: Firestore's streams on that origin, over TLS.
    ...(endpoint?.ssl ? { host: endpoint.host, ssl: true } : {}),
  })
  if (endpoint && !endpoint.ssl) connectFirestoreEmulator(firestore, endpoint.hostname, endpoint.port)
  await firebase.auth.authStateReady()
  const owner = firebase.auth.currentUser?.uid ?? null
  if (cacheOwner() !== owner) {
    // Before the instance starts: an earlier user's documents are never shown to this one.
    await clearIndexedDbPersistence(firestore).catch(reportError('the device cache could not be cleared'))
    setCacheOwner(owner)
  }
  return firestore
})

/**
 * What a listener hears: the documents the query matches now, whether this is its first snapshot,
 * and whether it comes from the device's cache (offline, or the user's own write not yet acknowledged).
 */
export type Heard = { docs: readonly QueryDocumentSnapshot[]; isFirst: boolean; fromCache: boolean }

/**
 * Listens to `spec` until the returned function is called: `onDocs` gets every snapshot that is in
 * step with the server or holds the user's own writes not yet acknowledged (offline, ADR 0033), and
 * `onError` the end of a listener the rules refuse. Each document's state feeds `lib/write-state.ts`.
 *
 * Other snapshots from the cache are not passed on, and metadata changes are asked for. When two listeners
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
      const { fromCache, hasPendingWrites } = snapshot.metadata
      // From the cache only with the user's own writes in it: they show at once, online or not.
      if (fromCache && !hasPendingWrites) return
      for (const document of snapshot.docs) {
        heardDocument(document.ref.path, document.metadata.hasPendingWrites, navigator.onLine)
      }
      onDocs({ docs: snapshot.docs, isFirst, fromCache })
      isFirst = false
    },
    onError,
  )
}

/**
 * A write kept on the device: its document's path and id, and `acked`, which settles when the backend
 * has acknowledged it (or refused it: then the SDK has taken it back from the cache).
 */
export type Written = { path: string; id: string; acked: Promise<void> }

/** A new document in `collectionPath`, its id made here: written once however often it is sent. */
export async function createDocument(collectionPath: string, data: Record<string, unknown>): Promise<Written> {
  const firestore = await live.get()
  const reference = doc(collection(firestore, collectionPath))
  return kept(reference, setDoc(reference, data))
}

/** Changes `fields` of the document at `path` and removes the fields named in `removed`. */
export async function updateDocument(
  path: string,
  fields: Record<string, unknown>,
  removed: readonly string[] = [],
): Promise<Written> {
  const firestore = await live.get()
  const reference = doc(firestore, path)
  const removals = Object.fromEntries(removed.map((field) => [field, deleteField()]))
  return kept(reference, updateDoc(reference, { ...fields, ...removals }))
}

/**
 * Resolves once the write is in the device's cache: the SDK does its work in order, so a read of the
 * cache asked for after the write is answered after the write was stored.
 */
async function kept(reference: DocumentReference, acked: Promise<void>): Promise<Written> {
  // The caller takes the outcome from `acked`; until then a refusal is not an unhandled rejection.
  acked.catch(() => {})
  await getDocFromCache(reference).catch(() => null)
  return { path: reference.path, id: reference.id, acked }
}

/** Whether every write kept on the device reached the backend within `wait` ms (before a sign-out). */
export async function waitForWrites(wait: number): Promise<boolean> {
  const firestore = await live.get()
  // A rejection means the user changed under it: nothing of theirs is left to wait for.
  const delivered = waitForPendingWrites(firestore).then(
    () => true,
    () => true,
  )
  return within(delivered, wait, false)
}

/**
 * At sign-out (the shell waited for the writes first): ends every listener and clears the device's
 * cache (a shared tablet), also one this tab never opened.
 */
export async function endLive(): Promise<void> {
  forgetWriteStates()
  const made = await live.forget()?.catch(() => null)
  const firestore = made ?? unstarted()
  if (firestore === null) return
  await terminate(firestore)
  await clearIndexedDbPersistence(firestore).then(
    () => setCacheOwner(null),
    reportError('the device cache could not be cleared'),
  )
}

/** An instance only to clear the cache a tab before this one left (never started). */
function unstarted(): Firestore | null {
  const app = getFirebase()?.app
  if (app === undefined) return null
  try {
    return initializeFirestore(app, { localCache: persistentLocalCache() })
  } catch (error) {
    reportError('the device cache could not be opened to clear it')(error)
    return null
  }
}
