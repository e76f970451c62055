/**
 * Per-account throttling of password sign-ins, as production's Identity Toolkit does it
 * (`TOO_MANY_ATTEMPTS_TRY_LATER`; docs/decisions/0021-bounds.md). The password checks of one
 * account run one after another, so the count is exact however many guesses arrive at once (and
 * colleagues signing in to one account at the same moment are only queued, never refused); a
 * success wipes the count. After `freeFailures` failures each further failure locks the account
 * for a delay that doubles from `firstDelayMs` up to `maxDelayMs`; while it is locked every attempt,
 * with the right password too, is refused without being checked or counted.
 *
 * Only accounts that exist are tracked (an unknown address has no password to guess), at most
 * `maxAccounts` of them: the least recently tried account whose lock has passed is forgotten first.
 * A count is also forgotten `forgetAfterMs` after the account's last failure.
 */
export type SignInThrottleOptions = {
  /** Failures allowed before the first delay (default 5). */
  freeFailures?: number
  /** The first delay (default 1 s); each further failure doubles it. */
  firstDelayMs?: number
  /** The longest delay (default 15 min). */
  maxDelayMs?: number
  /** A count is forgotten this long after the last failure (default 24 h). */
  forgetAfterMs?: number
  /** How many accounts are tracked at most (default 10,000). */
  maxAccounts?: number
  /** The clock (tests inject one). */
  now?: () => number
}

type AccountState = { failures: number; lockedUntil: number; lastFailureAt: number }

export type SignInOutcome = 'locked' | 'right' | 'wrong'

export class SignInThrottle {
  private readonly accounts = new Map<string, AccountState>()
  /** The last password check queued per account (only while one runs). */
  private readonly queues = new Map<string, Promise<void>>()
  private readonly freeFailures: number
  private readonly firstDelayMs: number
  private readonly maxDelayMs: number
  private readonly forgetAfterMs: number
  private readonly maxAccounts: number
  private readonly now: () => number

  constructor(options: SignInThrottleOptions = {}) {
    this.freeFailures = options.freeFailures ?? 5
    this.firstDelayMs = options.firstDelayMs ?? 1000
    this.maxDelayMs = options.maxDelayMs ?? 15 * 60_000
    this.forgetAfterMs = options.forgetAfterMs ?? 24 * 3_600_000
    this.maxAccounts = options.maxAccounts ?? 10_000
    this.now = options.now ?? Date.now
  }

  /** How many accounts are tracked (for tests and figures). */
  get size(): number {
    return this.accounts.size
  }

  /** The delay after the `failures`-th failure (0 while it is free). */
  delayAfter(failures: number): number {
    const over = failures - this.freeFailures
    if (over <= 0) return 0
    // 2 ** 40 ms is far past any cap; keep the exponent small so the product stays finite.
    return Math.min(this.firstDelayMs * 2 ** Math.min(over - 1, 40), this.maxDelayMs)
  }

  /**
   * Runs `verify` (the password check of `key`: project and canonical email) after the checks of the
   * same account before it, unless the account is locked: 'locked' (not run, not counted), 'right'
   * (the count starts over) or 'wrong' (counted, perhaps locking the account).
   */
  async check(key: string, verify: () => Promise<boolean>): Promise<SignInOutcome> {
    const previous = this.queues.get(key) ?? Promise.resolve()
    let release = () => {}
    const mine = new Promise<void>((resolve) => {
      release = resolve
    })
    const tail = previous.then(() => mine)
    this.queues.set(key, tail)
    await previous
    try {
      const now = this.now()
      let state = this.accounts.get(key)
      if (state && now >= state.lockedUntil && now - state.lastFailureAt >= this.forgetAfterMs) {
        this.accounts.delete(key)
        state = undefined
      }
      if (state && now < state.lockedUntil) {
        this.touch(key, state)
        return 'locked'
      }
      if (await verify()) {
        this.accounts.delete(key)
        return 'right'
      }
      const failed = state ?? { failures: 0, lockedUntil: 0, lastFailureAt: 0 }
      const at = this.now()
      failed.failures += 1
      failed.lastFailureAt = at
      const delay = this.delayAfter(failed.failures)
      if (delay > 0) failed.lockedUntil = at + delay
      this.touch(key, failed)
      return 'wrong'
    } finally {
      release()
      if (this.queues.get(key) === tail) this.queues.delete(key)
    }
  }

  /** Forgets the count of `key` (a new password was set: the account is restored at once). */
  forget(key: string): void {
    this.accounts.delete(key)
  }

  /** Marks `key` as the most recently tried, and keeps the map within maxAccounts. */
  private touch(key: string, state: AccountState): void {
    this.accounts.delete(key)
    this.accounts.set(key, state)
    if (this.accounts.size <= this.maxAccounts) return
    const now = this.now()
    let victim: string | undefined
    for (const [candidate, entry] of this.accounts) {
      if (candidate === key) continue
      if (entry.lockedUntil <= now) {
        victim = candidate
        break
      }
      victim ??= candidate
    }
    if (victim !== undefined) this.accounts.delete(victim)
  }
}
