import { type FirebaseApp, initializeApp } from 'firebase/app'
import {
  type Auth,
  browserLocalPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
} from 'firebase/auth'
import { getRuntimeConfig } from './config.ts'

export type Firebase = { app: FirebaseApp; auth: Auth }

let instance: Firebase | null | undefined

/**
 * The Firebase app and Auth, set up once from the runtime configuration; `null` when the
 * configuration is incomplete (no cloud service is set up then, REQ-SESSION-7). Firestore and Storage
 * are not here: they are imported on demand (lib/firestore.ts) so the sign-in page carries no
 * Firestore or Storage code. `initializeAuth` without the popup/redirect resolver keeps Auth small.
 */
export function getFirebase(): Firebase | null {
  if (instance !== undefined) return instance
  const config = getRuntimeConfig()
  if (config.firebase === null) {
    instance = null
    return instance
  }
  const app = initializeApp(config.firebase)
  const auth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] })
  if (config.emulators.auth !== null) connectAuthEmulator(auth, config.emulators.auth, { disableWarnings: true })
  instance = { app, auth }
  return instance
}
