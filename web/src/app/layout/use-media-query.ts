import { useSyncExternalStore } from 'react'

/**
 * Below this width the header folds its nav links and user menu into one menu button: the full
 * bar (logo, three links, location logo and switcher, user name) needs about 1000 px.
 */
export const COMPACT_HEADER_QUERY = '(max-width: 1023.98px)'

const mediaQuery = (query: string): MediaQueryList | null =>
  typeof window.matchMedia === 'function' ? window.matchMedia(query) : null

/** Whether a CSS media query matches now; re-renders when that changes (e.g. a tablet is rotated). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = mediaQuery(query)
      list?.addEventListener?.('change', onChange)
      return () => list?.removeEventListener?.('change', onChange)
    },
    () => mediaQuery(query)?.matches ?? false,
  )
}
