import type { FirebaseStorage } from 'firebase/storage'
import { backendEndpoint, getRuntimeConfig } from '../../../lib/config.ts'
import { getFirebase } from '../../../lib/firebase.ts'

let storage: Promise<FirebaseStorage> | null = null

/** Cloud Storage, loaded on first use (avatars only), connected to the emulator when configured. */
export function getAvatarStorage(): Promise<FirebaseStorage> {
  if (storage !== null) return storage
  storage = (async () => {
    const firebase = getFirebase()
    if (firebase === null) throw new Error('Firebase is not configured')
    const { connectStorageEmulator, getStorage } = await import('firebase/storage')
    const instance = getStorage(firebase.app)
    const host = getRuntimeConfig().emulators.storage
    if (host !== null) {
      try {
        connectStorage(instance, host, connectStorageEmulator)
      } catch {
        // Already connected by another part of the app (the location logo).
      }
    }
    await firebase.auth.authStateReady()
    return instance
  })()
  storage.catch(() => {
    storage = null
  })
  return storage
}

export const storageLib = () => import('firebase/storage')

/**
 * Points Storage at the configured backend: an emulator (`host:port`, plain http), or a pilot's
 * HTTPS origin, which the SDK reaches as it reaches Google (https, its own `/v0/b/…` paths) once its
 * host is that origin's.
 */
export function connectStorage(
  instance: FirebaseStorage,
  configured: string,
  connectEmulator: (storage: FirebaseStorage, host: string, port: number) => void,
): void {
  const endpoint = backendEndpoint(configured)
  if (endpoint.ssl) (instance as FirebaseStorage & { host: string }).host = endpoint.host
  else connectEmulator(instance, endpoint.hostname, endpoint.port)
}
