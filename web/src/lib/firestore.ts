import type { Firestore } from 'firebase/firestore/lite'
import { type BackendEndpoint, backendEndpoint, getRuntimeConfig } from './config.ts'
import { getFirebase } from './firebase.ts'

let db: Promise<Firestore> | null = null

/**
 * Firestore Lite (REST, no realtime listeners: what both emulators and production support), loaded
 * on first use so the sign-in page carries none of it. Waits for Auth to restore its user so
 * requests carry the ID token.
 */
export function getDb(): Promise<Firestore> {
  if (db !== null) return db
  db = (async () => {
    const firebase = getFirebase()
    if (firebase === null) throw new Error('Firebase is not configured')
    const { connectFirestoreEmulator, getFirestore, initializeFirestore } = await import('firebase/firestore/lite')
    const endpoint = firestoreEndpoint()
    // A pilot's HTTPS origin: Firestore's REST paths on that origin, over TLS.
    const firestore = endpoint?.ssl
      ? initializeFirestore(firebase.app, { host: endpoint.host, ssl: true })
      : getFirestore(firebase.app)
    if (endpoint && !endpoint.ssl) connectFirestoreEmulator(firestore, endpoint.hostname, endpoint.port)
    await firebase.auth.authStateReady()
    return firestore
  })()
  db.catch(() => {
    db = null
  })
  return db
}

/** Where Firestore is: an emulator's host and port, a pilot's HTTPS origin, or null for production's. */
export function firestoreEndpoint(): BackendEndpoint | null {
  const configured = getRuntimeConfig().emulators.firestore
  return configured === null ? null : backendEndpoint(configured)
}

/** The Firestore Lite functions, from the same on-demand chunk. */
export const firestoreLite = () => import('firebase/firestore/lite')
