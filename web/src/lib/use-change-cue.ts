import { useEffect, useState } from 'react'

/** How long a change stays marked on a live page. */
export const CHANGE_CUE_MS = 3000

/**
 * Whether to mark something as just changed (a live page's quiet cue): true for CHANGE_CUE_MS after
 * `signature` changes once shown, or from the start when it `isNewcomer` (it appeared after the list).
 */
export function useChangeCue(signature: string, isNewcomer = false): boolean {
  const [shown, setShown] = useState(signature)
  const [cueAt, setCueAt] = useState<string | null>(isNewcomer ? signature : null)
  if (shown !== signature) {
    setShown(signature)
    setCueAt(signature)
  }
  useEffect(() => {
    if (cueAt === null) return
    const timer = setTimeout(() => setCueAt(null), CHANGE_CUE_MS)
    return () => clearTimeout(timer)
  }, [cueAt])
  return cueAt !== null
}
