import { createHash } from 'node:crypto'
import type { Auth, DecodedIdToken } from 'firebase-admin/auth'
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
  auth: Auth
  /** How long a positive check is reused. 0 checks every time. */
  cacheMs: number
  now?: () => number
}

/**
 * Verifies session cookies with the revocation check (one Auth round-trip each). Checks of the same
 * cookie that arrive while one is in flight share it, and a positive answer is reused for `cacheMs`
 * (never past the cookie's expiry): a revocation made elsewhere takes effect within that time, one
 * made through this instance (`forget`) at once.
 */
export class SessionVerifier {
  readonly #auth: Auth
  readonly #cacheMs: number
  readonly #now: () => number
  readonly #valid = new Map<string, { session: DecodedIdToken; until: number }>()
  readonly #inFlight = new Map<string, Promise<DecodedIdToken | null>>()
  /** Cookies ended by logout here, until their expiry: Firebase's revocation has whole-second resolution. */
  readonly #ended = new Map<string, number>()

  constructor(options: SessionVerifierOptions) {
    this.#auth = options.auth
    this.#cacheMs = options.cacheMs
    this.#now = options.now ?? Date.now
  }

  /** The decoded session, or null when the cookie is missing, malformed, expired, revoked or its user disabled. */
  async verify(cookie: string | undefined): Promise<DecodedIdToken | null> {
    if (!cookie) return null
    const key = hash(cookie)
    if (this.#isEnded(key)) return null
    const cached = this.#valid.get(key)
    if (cached && cached.until > this.#now()) return cached.session
    if (cached) this.#valid.delete(key)
    const pending = this.#inFlight.get(key)
    if (pending) return pending
    const check = this.#check(key, cookie).finally(() => this.#inFlight.delete(key))
    this.#inFlight.set(key, check)
    return check
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
  admit(cookie: string): void {
    this.#ended.delete(hash(cookie))
  }

  async #check(key: string, cookie: string): Promise<DecodedIdToken | null> {
    try {
      const session = await this.#auth.verifySessionCookie(cookie, true)
      if (this.#isEnded(key)) return null
      if (this.#cacheMs > 0) {
        this.#valid.set(key, { session, until: Math.min(this.#now() + this.#cacheMs, session.exp * 1000) })
        this.#prune(this.#valid, (entry) => entry.until)
      }
      return session
    } catch (error) {
      if (isInvalidSessionError(error)) return null
      throw error
    }
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
