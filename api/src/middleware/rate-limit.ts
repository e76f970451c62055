import type { MiddlewareHandler } from 'hono'
import { httpError } from '../lib/http-error.ts'
import type { AppEnv, Services } from '../lib/types.ts'

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
 * 429 `too_many_requests` with Retry-After once a client address has failed too often. Only failed
 * attempts (4xx) count: a care home's staff share one office address and all sign in at the start
 * of a shift, so counting successes would lock out honest colleagues, not guessers.
 */
export function rateLimitFailures(limiterOf: (services: Services) => RateLimiter): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const limiter = limiterOf(c.var.services)
    const retryAfter = limiter.check(c.var.clientAddress)
    if (retryAfter > 0) throw httpError('too_many_requests', { headers: { 'retry-after': String(retryAfter) } })
    await next()
    if (c.res.status >= 400 && c.res.status < 500) limiter.hit(c.var.clientAddress)
  }
}
