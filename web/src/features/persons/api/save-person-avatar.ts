import { avatarPath, uploadAvatar } from '../../../lib/avatars/api/avatar-object.ts'
import { updatePerson } from './update-person.ts'

/** Uploads a (resized) picture under persons/{id}/ and saves its URL on the person. */
export async function savePersonAvatar(personId: string, image: Blob, onProgress: (fraction: number) => void) {
  const url = await uploadAvatar(avatarPath({ kind: 'persons', id: personId }), image, onProgress)
  await updatePerson(personId, { avatarUrl: url })
}
