import { isResourceExhausted } from './http-error.ts'

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
