/**
 * Whose documents the full SDK's cache on this device holds (a uid), kept in local storage beside it
 * (docs/decisions/0033-offline-writes.md): another user's first use clears the cache first, and a
 * sign-out clears it when there is one, even if this tab never opened it.
 */
const CACHE_OWNER_KEY = 'bosted.cacheOwner'

export const cacheOwner = (): string | null => localStorage.getItem(CACHE_OWNER_KEY)

export function setCacheOwner(uid: string | null): void {
  if (uid === null) localStorage.removeItem(CACHE_OWNER_KEY)
  else localStorage.setItem(CACHE_OWNER_KEY, uid)
}
