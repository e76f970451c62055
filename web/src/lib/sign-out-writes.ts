import { cacheOwner } from './device-cache.ts'

/** How long a sign-out waits for writes still on their way to the backend. */
const SIGN_OUT_WAIT_MS = 5_000

/**
 * Before a sign-out: whether every write of this device has reached the backend. Offline with writes
 * still waiting it is false at once; online it waits for them, at most SIGN_OUT_WAIT_MS. The device's
 * cache is cleared at sign-out, so a sign-out that went on would lose them. Without a cache there is
 * nothing to wait for, and the full SDK is not fetched for it.
 */
export async function writesDelivered(): Promise<boolean> {
  if (cacheOwner() === null) return true
  if (!navigator.onLine) return !(await import('./write-state.ts')).hasQueued()
  const { waitForWrites } = await import('./live.ts')
  return waitForWrites(SIGN_OUT_WAIT_MS)
}
