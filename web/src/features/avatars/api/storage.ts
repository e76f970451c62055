import type { FirebaseStorage } from 'firebase/storage'
import { getRuntimeConfig } from '../../../lib/config.ts'
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
      const separator = host.lastIndexOf(':')
      try {
        connectStorageEmulator(instance, host.slice(0, separator), Number(host.slice(separator + 1)))
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
