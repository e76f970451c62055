import type { Firestore } from 'firebase/firestore/lite'
import { getRuntimeConfig } from './config.ts'
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
    const { connectFirestoreEmulator, getFirestore } = await import('firebase/firestore/lite')
    const firestore = getFirestore(firebase.app)
    const host = getRuntimeConfig().emulators.firestore
    if (host !== null) {
      const separator = host.lastIndexOf(':')
      connectFirestoreEmulator(firestore, host.slice(0, separator), Number(host.slice(separator + 1)))
    }
    await firebase.auth.authStateReady()
    return firestore
  })()
  db.catch(() => {
    db = null
  })
  return db
}

/** The Firestore Lite functions, from the same on-demand chunk. */
export const firestoreLite = () => import('firebase/firestore/lite')
