import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { avatarPath, deleteAvatar, uploadAvatar } from '../../../lib/avatars/api/avatar-object.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { PERSON_UPDATE_TOASTS } from '../person-changes.ts'
import { personKeys } from './keys.ts'
import { updatePerson } from './update-person.ts'

/** Uploads a (resized) picture under persons/{id}/ and saves its URL on the person. */
export async function savePersonAvatar(personId: string, image: Blob, onProgress: (fraction: number) => void) {
  const url = await uploadAvatar(avatarPath({ kind: 'persons', id: personId }), image, onProgress)
  await updatePerson(personId, { avatarUrl: url })
}

/** Deletes the person's picture and clears its URL. */
export async function removePersonAvatar(personId: string) {
  await deleteAvatar(avatarPath({ kind: 'persons', id: personId }))
  await updatePerson(personId, { avatarUrl: null })
}

/**
 * Saves a person's picture with the update toasts, its upload's progress (0–1, null when idle)
 * alongside. A failure is told by the toast and warned about; the person is read again either way.
 */
export function useSavePersonAvatar() {
  const queryClient = useQueryClient()
  const [progress, setProgress] = useState<number | null>(null)
  const mutation = useMutation({
    mutationFn: ({ personId, image }: { personId: string; image: Blob }) => {
      setProgress(0)
      return toastPromise(savePersonAvatar(personId, image, setProgress), PERSON_UPDATE_TOASTS)
    },
    onError: reportError('the avatar could not be saved'),
    onSettled: async () => {
      setProgress(null)
      await queryClient.invalidateQueries({ queryKey: personKeys.all })
    },
  })
  return { ...mutation, progress }
}

/** Removes a person's picture with the update toasts; the person is read again either way. */
export function useRemovePersonAvatar() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (personId: string) => toastPromise(removePersonAvatar(personId), PERSON_UPDATE_TOASTS),
    onError: reportError('the avatar could not be removed'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: personKeys.all }),
  })
}
