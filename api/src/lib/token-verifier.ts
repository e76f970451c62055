import type { DecodedIdToken } from 'firebase-admin/auth'
import {
  type CryptoKey,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  importX509,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
  type ProtectedHeaderParameters,
} from 'jose'
import { CUSTOM_TOKEN_AUDIENCE } from './custom-token.ts'

// Why the api verifies tokens itself, and not with firebase-admin: docs/decisions/0012-api-verifies-tokens.md.

export type TokenKind = 'idToken' | 'sessionCookie'

/** Where the public keys of each kind come from: one jose key resolver per kind. */
export type KeySource = Record<TokenKind, JWTVerifyGetKey>

/** The host Google publishes its keys on; emulator-lite serves the same paths under `/www.googleapis.com`. */
export const GOOGLE_KEYS_BASE_URL = 'https://www.googleapis.com'
const X509_PATHS: Record<TokenKind, string> = {
  idToken: '/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com',
  sessionCookie: '/identitytoolkit/v3/relyingparty/publicKeys',
}
/** JWKS twins of the x509 maps; the session one is emulator-lite's own (Google publishes no JWKS for cookies). */
const JWKS_PATHS: Record<TokenKind, string> = {
  idToken: '/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com',
  sessionCookie: '/service_accounts/v1/jwk/session-cookies@emulator-lite.iam.gserviceaccount.com',
}
const ISSUERS: Record<TokenKind, string> = {
  idToken: 'https://securetoken.google.com/',
  sessionCookie: 'https://session.firebase.google.com/',
}
/** ID tokens live an hour; session cookies at most two weeks (Firebase's limits). */
const MAX_AGE_S: Record<TokenKind, number> = { idToken: 3600, sessionCookie: 14 * 24 * 3600 }
const EXPIRED_CODE: Record<TokenKind, RejectionCode> = {
  idToken: 'auth/id-token-expired',
  sessionCookie: 'auth/session-cookie-expired',
}
const REVOKED_CODE: Record<TokenKind, RejectionCode> = {
  idToken: 'auth/id-token-revoked',
  sessionCookie: 'auth/session-cookie-revoked',
}

export type KeyCacheOptions = {
  /** After an unknown `kid`, the keys are fetched again at most once per this time (jose's default, 30 s). */
  cooldownMs?: number
  /** A key fetch that takes longer fails (as unavailable). */
  timeoutMs?: number
}

/** firebase-admin's error codes, so callers (isInvalidSessionError) map them as they mapped firebase-admin's. */
export type RejectionCode =
  | 'auth/argument-error'
  | 'auth/id-token-expired'
  | 'auth/session-cookie-expired'
  | 'auth/id-token-revoked'
  | 'auth/session-cookie-revoked'
  | 'auth/user-disabled'
  | 'auth/user-not-found'

/** The token is not a valid one of its kind: the caller answers 401. */
export class TokenRejectedError extends Error {
  override readonly name = 'TokenRejectedError'
  readonly code: RejectionCode
  constructor(code: RejectionCode, message: string, options?: ErrorOptions) {
    super(message, options)
    this.code = code
  }
}

/** The keys could not be fetched or read: nothing can be verified, the caller answers 503 (never "valid"). */
export class TokenKeysUnavailableError extends Error {
  override readonly name = 'TokenKeysUnavailableError'
}

class UnknownKeyError extends Error {}

/**
 * Keys from emulator-lite: the JWKS it publishes for each key set, through jose's remote key set
 * (cached 10 minutes; an unknown `kid` fetches again at most once per cooldown).
 */
export function emulatorKeySource(emulatorHost: string, options: KeyCacheOptions = {}): KeySource {
  const remote = (kind: TokenKind) =>
    createRemoteJWKSet(new URL(`http://${emulatorHost}/www.googleapis.com${JWKS_PATHS[kind]}`), {
      cooldownDuration: options.cooldownMs ?? 30_000,
      timeoutDuration: options.timeoutMs ?? 5_000,
      cacheMaxAge: 10 * 60_000,
    })
  return { idToken: remote('idToken'), sessionCookie: remote('sessionCookie') }
}

/**
 * Keys as Google publishes them: a `{kid: PEM certificate}` map per kind, cached for the response's
 * `Cache-Control: max-age` (without one, fetched again at the next verification, as firebase-admin
 * does). `baseUrl` is Google's (`https://www.googleapis.com`) except in tests.
 */
export function googleKeySource(options: KeyCacheOptions & { baseUrl?: string; now?: () => number } = {}): KeySource {
  const baseUrl = options.baseUrl ?? GOOGLE_KEYS_BASE_URL
  const map = (kind: TokenKind) => {
    const keys = new X509KeyMap(`${baseUrl}${X509_PATHS[kind]}`, options)
    return (header: ProtectedHeaderParameters) => keys.get(header.kid ?? '')
  }
  return { idToken: map('idToken'), sessionCookie: map('sessionCookie') }
}

class X509KeyMap {
  readonly #url: string
  readonly #cooldownMs: number
  readonly #timeoutMs: number
  readonly #now: () => number
  #keys = new Map<string, CryptoKey>()
  #expiresAt = 0
  #fetchedAt = Number.NEGATIVE_INFINITY
  #pending: Promise<void> | undefined

  constructor(url: string, options: KeyCacheOptions & { now?: () => number }) {
    this.#url = url
    this.#cooldownMs = options.cooldownMs ?? 30_000
    this.#timeoutMs = options.timeoutMs ?? 5_000
    this.#now = options.now ?? Date.now
  }

  async get(kid: string): Promise<CryptoKey> {
    if (this.#now() >= this.#expiresAt) await this.#refresh()
    let key = this.#keys.get(kid)
    if (!key && this.#now() - this.#fetchedAt >= this.#cooldownMs) {
      // A key published since the last fetch (rotation).
      await this.#refresh()
      key = this.#keys.get(kid)
    }
    if (!key) throw new UnknownKeyError(`no published key has kid "${kid}"`)
    return key
  }

  #refresh(): Promise<void> {
    this.#pending ??= this.#fetch().finally(() => {
      this.#pending = undefined
    })
    return this.#pending
  }

  async #fetch(): Promise<void> {
    const response = await fetch(this.#url, { signal: AbortSignal.timeout(this.#timeoutMs) })
    if (!response.ok) throw new Error(`${this.#url} answered ${response.status}`)
    const body: unknown = await response.json()
    if (typeof body !== 'object' || body === null || Array.isArray(body) || 'error' in body) {
      throw new Error(`${this.#url} did not answer a {kid: certificate} map`)
    }
    const keys = new Map<string, CryptoKey>()
    for (const [kid, pem] of Object.entries(body)) {
      if (typeof pem !== 'string') throw new Error(`${this.#url}: the key "${kid}" is not a PEM certificate`)
      keys.set(kid, await importX509(pem, 'RS256'))
    }
    const maxAge = /(?:^|[,\s])max-age=(\d+)/i.exec(response.headers.get('cache-control') ?? '')?.[1]
    const now = this.#now()
    this.#keys = keys
    this.#fetchedAt = now
    this.#expiresAt = maxAge === undefined ? now : now + Number(maxAge) * 1000
  }
}

/** What revocation needs to know of a user: firebase-admin's UserRecord has both. */
export type UserLookup = (uid: string) => Promise<{ disabled: boolean; tokensValidAfterTime?: string | undefined }>

export type TokenVerifierOptions = {
  projectId: string
  keys: KeySource
  /** firebase-admin's getUser (a management call, which works against the emulator too). */
  getUser: UserLookup
  /**
   * Emulator mode only, by choice: also take `alg: none` tokens (the official Auth emulator signs
   * nothing), with every claim and revocation check but no signature. Off by default.
   */
  acceptUnsignedTokens?: boolean
  /** Allowance for clocks ahead of ours on `iat`, `auth_time` and `nbf`; `exp` has none. */
  clockToleranceS?: number
  now?: () => number
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

/**
 * Verifies Firebase ID tokens and session cookies with jose against published keys (emulator-lite's
 * or Google's, see the key sources), with the checks firebase-admin makes plus those it and jose
 * leave out (a missing `exp`, `iat` or `auth_time` in the future, a missing `kid`, an array `aud`),
 * then the revocation check (`checkRevoked`: the user exists, is not disabled, and signed in no
 * earlier than its tokens' valid-since time). Rejections throw TokenRejectedError, a key source
 * that cannot be read throws TokenKeysUnavailableError, a user lookup that fails its own error.
 */
export class TokenVerifier {
  readonly #projectId: string
  readonly #keys: KeySource
  readonly #getUser: UserLookup
  readonly #toleranceS: number
  readonly #now: () => number
  readonly #acceptUnsigned: boolean

  constructor(options: TokenVerifierOptions) {
    this.#projectId = options.projectId
    this.#keys = {
      idToken: guardKeyLookup(options.keys.idToken),
      sessionCookie: guardKeyLookup(options.keys.sessionCookie),
    }
    this.#getUser = options.getUser
    this.#toleranceS = options.clockToleranceS ?? 5
    this.#acceptUnsigned = options.acceptUnsignedTokens === true
    this.#now = options.now ?? Date.now
  }

  verifyIdToken(token: string): Promise<DecodedIdToken> {
    return this.verify('idToken', token)
  }

  verifySessionCookie(cookie: string): Promise<DecodedIdToken> {
    return this.verify('sessionCookie', cookie)
  }

  /** Signature and claims, without the revocation check (for measuring; callers use the two above). */
  async verifySignedClaims(kind: TokenKind, token: string): Promise<DecodedIdToken> {
    // Claims first, as firebase-admin does: a malformed or forged token costs no key fetch.
    const unsigned = this.#checkClaims(kind, token)
    if (unsigned) return { ...unsigned, uid: unsigned.sub } as DecodedIdToken
    let payload: JWTPayload
    try {
      ;({ payload } = await jwtVerify(token, this.#keys[kind], {
        algorithms: ['RS256'],
        issuer: ISSUERS[kind] + this.#projectId,
        audience: this.#projectId,
        requiredClaims: ['exp', 'iat', 'sub', 'auth_time'],
        // The same allowance as above for nbf; exp has none, which the check above already enforced.
        clockTolerance: this.#toleranceS,
        currentDate: new Date(this.#now()),
      }))
    } catch (error) {
      if (error instanceof TokenRejectedError || error instanceof TokenKeysUnavailableError) throw error
      if (error instanceof errors.JWTExpired) throw new TokenRejectedError(EXPIRED_CODE[kind], error.message)
      throw new TokenRejectedError('auth/argument-error', `${kindName(kind)}: ${(error as Error).message}`)
    }
    return { ...payload, uid: payload.sub } as DecodedIdToken
  }

  async verify(kind: TokenKind, token: string): Promise<DecodedIdToken> {
    const decoded = await this.verifySignedClaims(kind, token)
    await this.#checkRevoked(kind, decoded)
    return decoded
  }

  /** Throws unless the claims are right; returns the payload of an accepted unsigned token, else null. */
  #checkClaims(kind: TokenKind, token: string): JWTPayload | null {
    const reject: (message: string) => never = (message) => {
      throw new TokenRejectedError('auth/argument-error', `${kindName(kind)} ${message}`)
    }
    if (typeof token !== 'string') reject('is not a string')
    let header: ProtectedHeaderParameters
    let payload: JWTPayload
    try {
      header = decodeProtectedHeader(token)
      payload = decodeJwt(token)
    } catch {
      reject('could not be decoded')
    }
    if (payload.aud === CUSTOM_TOKEN_AUDIENCE) reject('is a custom token')
    const unsigned = this.#acceptUnsigned && header.alg === 'none'
    if (unsigned) {
      if (token.split('.')[2] !== '') reject('says alg none but carries a signature')
    } else {
      if (header.alg !== 'RS256') reject(`has the algorithm "${String(header.alg)}", not RS256`)
      if (typeof header.kid !== 'string' || header.kid === '') reject('has no "kid" header')
    }
    if (typeof payload.aud !== 'string' || payload.aud !== this.#projectId) reject('is for another audience')
    if (payload.iss !== ISSUERS[kind] + this.#projectId) reject('has another issuer')
    if (typeof payload.sub !== 'string' || payload.sub.length === 0 || payload.sub.length > 128) {
      reject('has no valid "sub" (a uid of 1 to 128 characters)')
    }
    const now = this.#now() / 1000
    const latest = now + this.#toleranceS
    if (!isTime(payload.exp)) reject('has no numeric "exp"')
    else if (payload.exp <= now) throw new TokenRejectedError(EXPIRED_CODE[kind], `${kindName(kind)} has expired`)
    if (!isTime(payload.iat) || payload.iat > latest) reject('has no "iat", or one in the future')
    // Older than Firebase ever issues this kind, whatever its exp says.
    if (now - payload.iat > MAX_AGE_S[kind] + this.#toleranceS) reject('was issued too long ago')
    if (!isTime(payload.auth_time) || payload.auth_time > latest) reject('has no "auth_time", or one in the future')
    if (payload.nbf !== undefined && (!isTime(payload.nbf) || payload.nbf > latest)) reject('is not valid yet ("nbf")')
    if (!isObject(payload.firebase)) reject('has no "firebase" object')
    return unsigned ? payload : null
  }

  async #checkRevoked(kind: TokenKind, decoded: DecodedIdToken): Promise<void> {
    let user: Awaited<ReturnType<UserLookup>>
    try {
      user = await this.#getUser(decoded.uid)
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === 'auth/user-not-found') {
        throw new TokenRejectedError('auth/user-not-found', `the user of this ${kindName(kind)} does not exist`)
      }
      throw error
    }
    if (user.disabled) throw new TokenRejectedError('auth/user-disabled', 'the user is disabled')
    // Whole seconds on both sides, so a token minted in the second of the revocation stays valid
    // (as in production: revokeRefreshTokens stores seconds).
    const validSinceMs = user.tokensValidAfterTime ? Date.parse(user.tokensValidAfterTime) : Number.NaN
    if (Number.isFinite(validSinceMs) && decoded.auth_time * 1000 < validSinceMs) {
      throw new TokenRejectedError(REVOKED_CODE[kind], `the ${kindName(kind)} has been revoked`)
    }
  }
}

const kindName = (kind: TokenKind) => (kind === 'idToken' ? 'ID token' : 'session cookie')

/**
 * An unknown `kid` rejects the token; any other failure to get a key (network, timeout, a body that
 * is not a key set) means the keys are unavailable, never that the token is valid.
 */
function guardKeyLookup(getKey: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await getKey(header, token)
    } catch (error) {
      if (error instanceof UnknownKeyError || error instanceof errors.JWKSNoMatchingKey) {
        throw new TokenRejectedError('auth/argument-error', `the token's kid is not a published key (${error.message})`)
      }
      throw new TokenKeysUnavailableError(`the public keys could not be read: ${(error as Error).message}`, {
        cause: error,
      })
    }
  }
}
