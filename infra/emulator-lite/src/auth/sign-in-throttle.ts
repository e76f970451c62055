/**
 * Per-account throttling of password sign-ins, as production's Identity Toolkit does it
 * (`TOO_MANY_ATTEMPTS_TRY_LATER`; docs/decisions/0021-bounds.md). Every attempt on an account
 * counts as a failure when it starts (so parallel guesses cannot slip past the count while the
 * password hash is checked) and a success wipes the count. After `freeFailures` failures each
 * further attempt locks the account for a delay that doubles from `firstDelayMs` up to `maxDelayMs`;
 * while it is locked every attempt, with the right password too, is refused and not counted.
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

export type SignInAttempt = {
  /** The account was locked: refuse without checking the password. */
  refused: boolean
  /** When the lock ends (ms since the epoch); 0 when not refused. */
  retryAt: number
  /** Call when the password was right: the count starts over. */
  succeeded(): void
}

export class SignInThrottle {
  private readonly accounts = new Map<string, AccountState>()
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

  /** Begins an attempt on `key` (project and canonical email), counted as a failure until it succeeds. */
  attempt(key: string): SignInAttempt {
    const now = this.now()
    let state = this.accounts.get(key)
    if (state && now - state.lastFailureAt >= this.forgetAfterMs && now >= state.lockedUntil) state = undefined
    if (state && now < state.lockedUntil) {
      this.touch(key, state)
      return { refused: true, retryAt: state.lockedUntil, succeeded: () => {} }
    }
    state ??= { failures: 0, lockedUntil: 0, lastFailureAt: 0 }
    state.failures += 1
    state.lastFailureAt = now
    const delay = this.delayAfter(state.failures)
    if (delay > 0) state.lockedUntil = now + delay
    this.touch(key, state)
    const counted = state
    return {
      refused: false,
      retryAt: 0,
      succeeded: () => {
        if (this.accounts.get(key) === counted) this.accounts.delete(key)
      },
    }
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
