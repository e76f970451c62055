import { getAvatarStorage, storageLib } from './storage.ts'

/** The avatar's object under its owner's path (storage.rules: persons/{id}/*, users/{uid}/*). */
export const avatarPath = (owner: { kind: 'persons' | 'users'; id: string }) => `${owner.kind}/${owner.id}/avatar`

/** Uploads the (already resized) image, reporting progress 0–1; answers its download URL. */
export async function uploadAvatar(path: string, image: Blob, onProgress: (fraction: number) => void): Promise<string> {
  const [storage, { getDownloadURL, ref, uploadBytesResumable }] = await Promise.all([getAvatarStorage(), storageLib()])
  const task = uploadBytesResumable(ref(storage, path), image, { contentType: image.type })
  await new Promise<void>((resolve, reject) => {
    task.on(
      'state_changed',
      (snapshot) => onProgress(snapshot.totalBytes === 0 ? 0 : snapshot.bytesTransferred / snapshot.totalBytes),
      reject,
      () => resolve(),
    )
  })
  return getDownloadURL(task.snapshot.ref)
}

/** Deletes the avatar's object; one already gone is no failure. */
export async function deleteAvatar(path: string): Promise<void> {
  const [storage, { deleteObject, ref }] = await Promise.all([getAvatarStorage(), storageLib()])
  try {
    await deleteObject(ref(storage, path))
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'storage/object-not-found') throw error
  }
}
