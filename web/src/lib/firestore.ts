import type { Firestore } from 'firebase/firestore/lite'
import { type BackendEndpoint, backendEndpoint, getRuntimeConfig } from './config.ts'
import { type Firebase, getFirebase } from './firebase.ts'

/**
 * A Firestore instance made on first use and kept: with the app's Firebase (an error when it is not
 * configured), Auth's stored user restored before it is handed out so requests carry the ID token,
 * made again after a failure. `forget()` hands back what was made (to end it) and starts over.
 */
export function firestoreOnce<T>(make: (firebase: Firebase, endpoint: BackendEndpoint | null) => T | Promise<T>) {
  let made: Promise<T> | null = null
  return {
    get(): Promise<T> {
      if (made !== null) return made
      const making = (async () => {
        const firebase = getFirebase()
        if (firebase === null) throw new Error('Firebase is not configured')
        const instance = await make(firebase, firestoreEndpoint())
        await firebase.auth.authStateReady()
        return instance
      })()
      made = making
      making.catch(() => {
        if (made === making) made = null
      })
      return making
    },
    forget(): Promise<T> | null {
      const was = made
      made = null
      return was
    },
  }
}

/**
 * Firestore Lite (REST, no realtime listeners), loaded on first use so the sign-in page carries none
 * of it.
 */
const lite = firestoreOnce(async (firebase, endpoint) => {
  const { connectFirestoreEmulator, getFirestore, initializeFirestore } = await import('firebase/firestore/lite')
  // A pilot's HTTPS origin: Firestore's REST paths on that origin, over TLS.
  const firestore = endpoint?.ssl
    ? initializeFirestore(firebase.app, { host: endpoint.host, ssl: true })
    : getFirestore(firebase.app)
  if (endpoint && !endpoint.ssl) connectFirestoreEmulator(firestore, endpoint.hostname, endpoint.port)
  return firestore
})

export const getDb = (): Promise<Firestore> => lite.get()

/** Where Firestore is: an emulator's host and port, a pilot's HTTPS origin, or null for production's. */
function firestoreEndpoint(): BackendEndpoint | null {
  const configured = getRuntimeConfig().emulators.firestore
  return configured === null ? null : backendEndpoint(configured)
}

/** The Firestore Lite functions, from the same on-demand chunk. */
export const firestoreLite = () => import('firebase/firestore/lite')
