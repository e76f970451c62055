import type { MiddlewareHandler } from 'hono'
import { httpError, isResourceExhausted } from '../lib/http-error.ts'
import type { AppEnv } from '../lib/types.ts'

/**
 * Whether the backend stores writes right now, from a probe write at most `maxAgeMs` old. Only a
 * definite refusal for lack of space (RESOURCE_EXHAUSTED) closes the gate: a slow or unreachable
 * backend is left to the route's own errors.
 */
export class WriteGate {
  #checkedAt = Number.NEGATIVE_INFINITY
  #full = false
  #inFlight: Promise<boolean> | null = null

  constructor(
    readonly probe: () => Promise<void>,
    readonly maxAgeMs = 5_000,
    readonly now: () => number = Date.now,
  ) {}

  /** True when the backend refused the latest probe write for lack of space. */
  async isFull(): Promise<boolean> {
    if (this.now() - this.#checkedAt < this.maxAgeMs) return this.#full
    this.#inFlight ??= Promise.resolve()
      .then(() => this.probe())
      .then(
        () => false,
        (error: unknown) => isResourceExhausted(error),
      )
    try {
      this.#full = await this.#inFlight
      this.#checkedAt = this.now()
      return this.#full
    } finally {
      this.#inFlight = null
    }
  }
}

/**
 * Answers a write request (anything but GET/HEAD) with 507 `storage_full` and the Danish message
 * at once while the backend stores nothing, instead of letting it wait on firebase-admin, which
 * retries a refused commit for up to ten minutes. Nothing was attempted, so "not saved" is true.
 */
export const writeGate: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && (await c.var.services.writeGate.isFull())) {
    throw httpError('storage_full')
  }
  await next()
}
