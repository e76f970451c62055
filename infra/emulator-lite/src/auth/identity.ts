import { type KeyObject, sign, verify } from 'node:crypto'
import type { RulesAuth } from '../rules/index.ts'
import type { KeySetName, SigningKeys } from './keys.ts'

// Signing and verifying emulator-lite's JWTs with node:crypto (RSASSA-PKCS1-v1_5 + SHA-256), kept
// synchronous so the rules guard can verify a token inline. The checks are those of
// docs/wire/identity.md#verification-checklist, including the ones firebase-admin and JOSE libraries leave out.

export const ID_TOKEN_ISSUER = 'https://securetoken.google.com/'
export const SESSION_COOKIE_ISSUER = 'https://session.firebase.google.com/'
/** Tolerance for `iat`, `auth_time` and `nbf` a little in the future (clocks of one machine, in seconds). */
export const CLOCK_SKEW_SECONDS = 5

export type Claims = Record<string, unknown>

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** An RS256 JWT: header `{alg, kid, typ}` and `payload`, signed with `privateKey`. */
export function signJwt(payload: Claims, privateKey: KeyObject, kid?: string): string {
  const header = kid === undefined ? { alg: 'RS256', typ: 'JWT' } : { alg: 'RS256', kid, typ: 'JWT' }
  const input = `${json(header)}.${json(payload)}`
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`
}

/** Header and payload of a JWT without checking anything; null when it is not three parts of JSON objects. */
export function decodeJwt(token: string): { header: Claims; payload: Claims; signature: string } | null {
  const first = token.indexOf('.')
  const second = token.indexOf('.', first + 1)
  if (first < 0 || second < 0 || token.indexOf('.', second + 1) >= 0) return null
  try {
    const header: unknown = JSON.parse(Buffer.from(token.slice(0, first), 'base64url').toString('utf8'))
    const payload: unknown = JSON.parse(Buffer.from(token.slice(first + 1, second), 'base64url').toString('utf8'))
    if (!isObject(header) || !isObject(payload)) return null
    return { header, payload, signature: token.slice(second + 1) }
  } catch {
    return null
  }
}

/** Why a token was refused; `expired` is the only reason Auth answers differently (TOKEN_EXPIRED). */
export type Refusal =
  | 'malformed'
  | 'algorithm'
  | 'kid'
  | 'signature'
  | 'audience'
  | 'issuer'
  | 'subject'
  | 'expired'
  | 'time'
export type Checked = { ok: true; header: Claims; claims: Claims } | { ok: false; reason: Refusal }

const BASE64URL = /^[A-Za-z0-9_-]+$/

/** The RS256 signature of `token` under the key its `kid` names (`keyOf`); the header must name one. */
export function checkSignature(
  token: string,
  keyOf: (kid: string) => KeyObject | undefined,
  options: { kidRequired: boolean } = { kidRequired: true },
): Checked {
  const decoded = decodeJwt(token)
  if (!decoded) return { ok: false, reason: 'malformed' }
  const { header, payload, signature } = decoded
  if (header.alg !== 'RS256') return { ok: false, reason: 'algorithm' }
  if (header.kid === undefined && options.kidRequired) return { ok: false, reason: 'kid' }
  if (header.kid !== undefined && typeof header.kid !== 'string') return { ok: false, reason: 'kid' }
  const key = keyOf(typeof header.kid === 'string' ? header.kid : '')
  if (!key) return { ok: false, reason: 'kid' }
  if (!BASE64URL.test(signature)) return { ok: false, reason: 'signature' }
  const input = token.slice(0, token.length - signature.length - 1)
  if (!verify('sha256', Buffer.from(input), key, Buffer.from(signature, 'base64url')))
    return { ok: false, reason: 'signature' }
  return { ok: true, header, claims: payload }
}

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

/**
 * An ID token or session cookie of emulator-lite: signature under `set`, `aud` a string among
 * `audiences`, `iss` = `issuer` + `aud`, `sub` of 1..128 characters, `exp` > now, and `iat`,
 * `auth_time` (and `nbf` when present) not beyond now + 5 s.
 */
export function checkFirebaseJwt(
  token: string,
  keys: SigningKeys,
  set: KeySetName,
  issuer: string,
  audiences: readonly string[],
  nowMs: number,
): Checked {
  const signed = checkSignature(token, (kid) => keys.publicKey(set, kid))
  if (!signed.ok) return signed
  const { claims } = signed
  const aud = claims.aud
  if (typeof aud !== 'string' || !audiences.includes(aud)) return { ok: false, reason: 'audience' }
  if (claims.iss !== `${issuer}${aud}`) return { ok: false, reason: 'issuer' }
  const sub = claims.sub
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > 128) return { ok: false, reason: 'subject' }
  const now = nowMs / 1000
  if (!isTime(claims.exp)) return { ok: false, reason: 'time' }
  if (!isTime(claims.iat) || claims.iat > now + CLOCK_SKEW_SECONDS) return { ok: false, reason: 'time' }
  if (!isTime(claims.auth_time) || claims.auth_time > now + CLOCK_SKEW_SECONDS) return { ok: false, reason: 'time' }
  if (claims.nbf !== undefined && (!isTime(claims.nbf) || claims.nbf > now + CLOCK_SKEW_SECONDS))
    return { ok: false, reason: 'time' }
  if (claims.exp <= now) return { ok: false, reason: 'expired' }
  return signed
}

/** The claims of an unsigned (`alg: none`) token as `request.auth`, as the official emulators read them. */
export function unsignedAuth(token: string): RulesAuth {
  const decoded = decodeJwt(token)
  if (decoded?.header.alg !== 'none') return null
  const claims = decoded.payload
  const uid = typeof claims.sub === 'string' ? claims.sub : claims.user_id
  if (typeof uid !== 'string' || uid === '') return null
  return { uid, token: claims }
}

/** `request.auth` for a bearer token presented to Firestore or Storage of `project`; null = no identity. */
export type IdTokenVerifier = (token: string, project: string) => RulesAuth

export type IdTokenVerifierOptions = {
  keys: SigningKeys
  /** Auth's default project: its tokens are accepted by every Firestore project (tests share one Auth). */
  defaultProject: string
  /** Also accept `alg: none` tokens (rules-unit-testing, the official Auth emulator). Off by default. */
  acceptUnsignedTokens?: boolean
  /** Verified tokens kept (by token string, until `exp`); the oldest goes first. */
  cacheSize?: number
  now?: () => number
}

type CacheEntry = { auth: NonNullable<RulesAuth>; aud: string; expMs: number }

/**
 * The verifier of ID tokens for Firestore and Storage. Synchronous; a token verified once is
 * served from a bounded cache until it expires, so a signed-in client pays the RSA check once.
 * A refused token yields null: the rules then decide as for a caller without a token.
 */
export function createIdTokenVerifier(options: IdTokenVerifierOptions): {
  verifyIdToken: IdTokenVerifier
  acceptsUnsigned: boolean
} {
  const now = options.now ?? Date.now
  const cacheSize = options.cacheSize ?? 10_000
  const cache = new Map<string, CacheEntry>()
  const acceptsUnsigned = options.acceptUnsignedTokens === true

  function verifyIdToken(token: string, project: string): RulesAuth {
    const nowMs = now()
    const hit = cache.get(token)
    if (hit !== undefined) {
      if (hit.expMs <= nowMs) cache.delete(token)
      else return hit.aud === project || hit.aud === options.defaultProject ? hit.auth : null
    }
    const checked = checkFirebaseJwt(
      token,
      options.keys,
      'id',
      ID_TOKEN_ISSUER,
      [project, options.defaultProject],
      nowMs,
    )
    if (!checked.ok) return acceptsUnsigned ? unsignedAuth(token) : null
    const { claims } = checked
    const auth = { uid: claims.sub as string, token: claims }
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string)
    cache.set(token, { auth, aud: claims.aud as string, expMs: (claims.exp as number) * 1000 })
    return auth
  }

  return { verifyIdToken, acceptsUnsigned }
}
