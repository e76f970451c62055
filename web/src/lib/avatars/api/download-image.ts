import type { StorageObject } from '../storage-object.ts'
import { getAvatarStorage, storageLib } from './storage.ts'

/** The object's bytes, downloaded with the signed-in user's ID token (`Authorization: Firebase …`). */
export async function downloadImage(object: StorageObject): Promise<Blob> {
  const [storage, { getBlob, ref }] = await Promise.all([getAvatarStorage(), storageLib()])
  return getBlob(ref(storage, `gs://${object.bucket}/${object.path}`))
}
