import { httpError } from '../lib/http-error.ts'

export type RateLimitOptions = { max: number; windowMs: number; now?: () => number }

/**
 * A fixed-window counter per key. In memory: each api instance counts on its own, which is enough
 * to slow down guessing from one address; a cluster would move this to a shared store.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { count: number; resetAt: number }>()
  readonly #max: number
  readonly #windowMs: number
  readonly #now: () => number

  constructor(options: RateLimitOptions) {
    this.#max = options.max
    this.#windowMs = options.windowMs
    this.#now = options.now ?? Date.now
  }

  /** The seconds to wait when `key` has used up its window, otherwise 0. Counts nothing. */
  check(key: string): number {
    const now = this.#now()
    const window = this.#windows.get(key)
    if (!window || window.resetAt <= now || window.count < this.#max) return 0
    return Math.max(1, Math.ceil((window.resetAt - now) / 1000))
  }

  /** Counts one attempt of `key`. */
  hit(key: string): void {
    const now = this.#now()
    let window = this.#windows.get(key)
    if (!window || window.resetAt <= now) {
      if (this.#windows.size >= 10_000) this.#sweep(now)
      window = { count: 0, resetAt: now + this.#windowMs }
      this.#windows.set(key, window)
    }
    window.count += 1
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key)
  }
}

/**
 * Counts one refused attempt of `key`, or throws 429 `too_many_requests` with Retry-After when
 * `key` has used up its window (the attempt is then not counted again).
 */
export function countRefusal(limiter: RateLimiter, key: string): void {
  const retryAfter = limiter.check(key)
  if (retryAfter > 0) throw httpError('too_many_requests', { headers: { 'retry-after': String(retryAfter) } })
  limiter.hit(key)
}
