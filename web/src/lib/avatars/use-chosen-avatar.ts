import { useCallback, useState } from 'react'

/** A picture chosen for someone not saved yet: the resized image and its preview (an object URL). */
export type ChosenAvatar = { image: Blob; preview: string }

/**
 * The chosen picture, kept in memory only (a file cannot go into sessionStorage: a reload asks for
 * it again). Replacing or clearing it releases the previous preview's object URL.
 */
export function useChosenAvatar() {
  const [avatar, setAvatarState] = useState<ChosenAvatar | null>(null)
  const setAvatar = useCallback((next: ChosenAvatar | null) => {
    setAvatarState((current) => {
      if (current !== null) URL.revokeObjectURL(current.preview)
      return next
    })
  }, [])
  return [avatar, setAvatar] as const
}
