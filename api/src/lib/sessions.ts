import { createHash } from 'node:crypto'
import type { DecodedIdToken } from 'firebase-admin/auth'
import type { EndedSessionStore } from './ended-sessions.ts'
import { isUnavailable } from './http-error.ts'

/** The auth error codes that mean "this token or cookie is not a valid session" (not "Auth is down"). */
const INVALID_SESSION_CODES = new Set([
  'auth/argument-error',
  'auth/invalid-argument',
  'auth/invalid-session-cookie-duration',
  'auth/session-cookie-expired',
  'auth/session-cookie-revoked',
  'auth/id-token-expired',
  'auth/id-token-revoked',
  'auth/invalid-id-token',
  'auth/user-disabled',
  'auth/user-not-found',
  'auth/invalid-uid',
])

export function isInvalidSessionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && INVALID_SESSION_CODES.has(code) && !isUnavailable(error)
}

const MAX_ENTRIES = 10_000
const hash = (value: string) => createHash('sha256').update(value).digest('base64url')

export type SessionVerifierOptions = {
  /** The full check of a cookie: signature, claims and revocation (TokenVerifier.verifySessionCookie). */
  verifySessionCookie: (cookie: string) => Promise<DecodedIdToken>
  /** How long a positive check is reused. 0 checks every time. */
  cacheMs: number
  now?: () => number
  random?: () => number
  /** Whether an account is turned off in its documents (settings.disabled): its sessions end. */
  isDisabled?: (uid: string) => Promise<boolean>
  /** Where cookies ended on one device are recorded for every instance and past a restart. */
  endedStore?: EndedSessionStore
}

/**
 * Verifies session cookies with the revocation check (one Auth round-trip each) and caches the
 * answers: the verification itself is TokenVerifier's, this class decides how often it runs. Checks of the same
 * cookie that arrive while one is in flight share it, and a positive answer is reused for `cacheMs`
 * (never past the cookie's expiry), re-checked in the background after 50–90 % of that time: a
 * revocation made elsewhere takes effect within `cacheMs`, one made through this instance
 * (`forget`) at once.
 */
export class SessionVerifier {
  readonly #verifySessionCookie: (cookie: string) => Promise<DecodedIdToken>
  readonly #cacheMs: number
  readonly #now: () => number
  readonly #random: () => number
  readonly #isDisabled: ((uid: string) => Promise<boolean>) | undefined
  readonly #endedStore: EndedSessionStore | undefined
  readonly #valid = new Map<string, { session: DecodedIdToken; until: number; refreshAt: number }>()
  readonly #inFlight = new Map<string, Promise<DecodedIdToken | null>>()
  /** Cookies ended by logout here, until their expiry: Firebase's revocation has whole-second resolution. */
  readonly #ended = new Map<string, number>()

  constructor(options: SessionVerifierOptions) {
    this.#verifySessionCookie = options.verifySessionCookie
    this.#cacheMs = options.cacheMs
    this.#now = options.now ?? Date.now
    this.#random = options.random ?? Math.random
    this.#isDisabled = options.isDisabled
    this.#endedStore = options.endedStore
  }

  /** The decoded session, or null when the cookie is missing, malformed, expired, revoked or its user disabled. */
  async verify(cookie: string | undefined): Promise<DecodedIdToken | null> {
    if (!cookie) return null
    const key = hash(cookie)
    if (this.#isEnded(key)) return null
    const now = this.#now()
    const cached = this.#valid.get(key)
    if (cached && cached.until > now) {
      // Re-check in the background near the end of the cache time, so a session in steady use is
      // never waited for and a revocation still shows within `cacheMs`.
      if (now >= cached.refreshAt && !this.#inFlight.has(key)) this.#start(key, cookie).catch(() => {})
      return cached.session
    }
    if (cached) this.#valid.delete(key)
    return this.#inFlight.get(key) ?? this.#start(key, cookie)
  }

  /** Like verify, without the cache: for calls that act on the account (refresh). */
  async verifyNow(cookie: string | undefined): Promise<DecodedIdToken | null> {
    if (!cookie) return null
    const key = hash(cookie)
    if (this.#isEnded(key)) return null
    return this.#check(key, cookie)
  }

  #start(key: string, cookie: string): Promise<DecodedIdToken | null> {
    const check = this.#check(key, cookie).finally(() => this.#inFlight.delete(key))
    this.#inFlight.set(key, check)
    return check
  }

  /**
   * Ends this one cookie ("Log ud" on one device): at once here, and through the store for every
   * instance and after a restart. The user's other sessions (other devices) are untouched.
   */
  async end(cookie: string, expiresAtMs: number): Promise<void> {
    const key = hash(cookie)
    this.#ended.set(key, expiresAtMs)
    this.#valid.delete(key)
    this.#inFlight.delete(key)
    this.#prune(this.#ended, (until) => until)
    await this.#endedStore?.add(key, expiresAtMs)
  }

  /** Ends one cookie in this instance and drops every cached check of its user. */
  forget(cookie: string | undefined, uid: string, expiresAtMs: number): void {
    if (cookie) {
      const key = hash(cookie)
      this.#ended.set(key, expiresAtMs)
      this.#inFlight.delete(key)
      this.#prune(this.#ended, (until) => until)
    }
    for (const [key, entry] of this.#valid) if (entry.session.uid === uid) this.#valid.delete(key)
  }

  /**
   * A session cookie was just issued. Firebase's cookies carry whole seconds and nothing random, so
   * a login in the same second as a logout yields the very cookie that logout ended here: the user
   * has signed in again, so it is valid again.
   */
  async admit(cookie: string): Promise<void> {
    const key = hash(cookie)
    const wasEnded = this.#ended.delete(key)
    if (this.#endedStore !== undefined && (wasEnded || (await this.#endedStore.has(key)))) {
      await this.#endedStore.remove(key)
    }
  }

  async #check(key: string, cookie: string): Promise<DecodedIdToken | null> {
    let session: DecodedIdToken
    try {
      session = await this.#verifySessionCookie(cookie)
    } catch (error) {
      if (!isInvalidSessionError(error)) throw error
      this.#valid.delete(key)
      return null
    }
    if (this.#isEnded(key)) return null
    // An account turned off in its documents ends its sessions at their next check; a cookie ended
    // on its device (by any instance) is over too. Both are read together.
    const [disabled, ended] = await Promise.all([
      this.#isDisabled?.(session.uid) ?? false,
      this.#endedStore?.has(key) ?? false,
    ])
    if (disabled || ended) {
      this.#valid.delete(key)
      return null
    }
    if (this.#cacheMs > 0) {
      const now = this.#now()
      const until = Math.min(now + this.#cacheMs, session.exp * 1000)
      // A random point between half and 90 % of the cache time, so sessions first seen together are
      // not all re-checked in the same instant.
      const refreshAt = now + this.#cacheMs * (0.5 + 0.4 * this.#random())
      this.#valid.set(key, { session, until, refreshAt })
      this.#prune(this.#valid, (entry) => entry.until)
    }
    return session
  }

  #isEnded(key: string): boolean {
    const until = this.#ended.get(key)
    if (until === undefined) return false
    if (until > this.#now()) return true
    this.#ended.delete(key)
    return false
  }

  /** Drops expired entries, then the oldest ones, so neither map grows without bound. */
  #prune<T>(map: Map<string, T>, until: (value: T) => number): void {
    if (map.size <= MAX_ENTRIES) return
    const now = this.#now()
    for (const [key, value] of map) if (until(value) <= now) map.delete(key)
    for (const key of map.keys()) {
      if (map.size <= MAX_ENTRIES) break
      map.delete(key)
    }
  }
}
