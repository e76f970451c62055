import { CHUNK_RELOAD_GUARD_MS } from '@bosted/domain/constants'

const STORAGE_KEY = 'chunkReloadAt'

/** Chromium, Firefox and Safari word a failed dynamic import differently; Vite adds its own. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    error.message,
  )
}

export type ReloadDeps = {
  storage: Pick<Storage, 'getItem' | 'setItem'>
  now(): number
  reload(): void
  isOnline(): boolean
}

/**
 * After a deploy the old chunks are gone: reload once to fetch the new ones, but not again within
 * 10 s, so a chunk that is really missing shows the error page instead of a reload loop. Never while
 * the browser is offline: the chunk failed for want of a network, and a reload would put the
 * browser's own offline page where the app was. Returns whether a reload was started.
 */
export function reloadOnceAfterChunkError(deps: ReloadDeps): boolean {
  if (!deps.isOnline()) return false
  const last = Number(deps.storage.getItem(STORAGE_KEY) ?? 0)
  const now = deps.now()
  if (now - last < CHUNK_RELOAD_GUARD_MS) return false
  deps.storage.setItem(STORAGE_KEY, String(now))
  deps.reload()
  return true
}

export const browserReloadDeps = (): ReloadDeps => ({
  storage: sessionStorage,
  now: () => Date.now(),
  reload: () => window.location.reload(),
  isOnline: () => navigator.onLine,
})
