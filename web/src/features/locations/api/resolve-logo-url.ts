import { connectStorage } from '../../../lib/avatars/api/storage.ts'
import { getRuntimeConfig } from '../../../lib/config.ts'
import { getFirebase } from '../../../lib/firebase.ts'

/**
 * A logo is either a URL already (https, data:) or a Cloud Storage path, which is turned into a
 * download URL through Storage, loaded only when such a path is met.
 */
export async function resolveLogoUrl(value: unknown): Promise<string | null> {
  if (typeof value !== 'string' || value.trim() === '') return null
  if (/^(https?:|data:|blob:|\/)/.test(value)) return value
  const firebase = getFirebase()
  if (firebase === null) return null
  try {
    const { connectStorageEmulator, getDownloadURL, getStorage, ref } = await import('firebase/storage')
    const storage = getStorage(firebase.app)
    const host = getRuntimeConfig().emulators.storage
    if (host !== null && !connected.has(storage)) {
      connectStorage(storage, host, connectStorageEmulator)
      connected.add(storage)
    }
    return await getDownloadURL(ref(storage, value))
  } catch (error) {
    console.warn('the location logo could not be resolved', error)
    return null
  }
}

const connected = new WeakSet<object>()
