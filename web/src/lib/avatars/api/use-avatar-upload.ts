import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { reportError } from '../../report-error.ts'
import { type PromiseMessages, toastPromise } from '../../toast.ts'
import { avatarPath, uploadAvatar } from './avatar-object.ts'

type Upload = {
  owner: Parameters<typeof avatarPath>[0]
  image: Blob
  /** Writes the URL on the owner's document (the owner's feature knows how). */
  save: (url: string) => Promise<void>
}

/**
 * Uploads a (resized) picture under its owner's path and hands its URL to `save`, told by `toasts`;
 * the upload's progress (0–1, null when idle) comes alongside. A failure is warned about.
 */
export function useAvatarUpload(toasts: PromiseMessages<void>) {
  const [progress, setProgress] = useState<number | null>(null)
  const mutation = useMutation({
    mutationFn: ({ owner, image, save }: Upload) => {
      setProgress(0)
      const work = async () => save(await uploadAvatar(avatarPath(owner), image, setProgress))
      return toastPromise(work(), toasts)
    },
    onError: reportError('the picture could not be saved'),
    onSettled: () => setProgress(null),
  })
  return { ...mutation, progress }
}
