import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { beforeAll, describe, expect, test, vi } from 'vitest'
import { signUnsigned } from '../../test/forged-token.ts'
import { createIdTokenVerifier, ID_TOKEN_ISSUER, SESSION_COOKIE_ISSUER, signJwt } from './identity.ts'
import { SigningKeys } from './keys.ts'
import { CUSTOM_TOKEN_AUDIENCE } from './tokens.ts'

// The verifier Firestore and Storage use, against the cases of docs/wire/identity.md#verification-checklist that concern a
// token's own content (#1-#24, #29; revocation #25-#28 is Auth's, see operations.test.ts). Every
// refused token yields null: the rules then see no identity.
const PROJECT = 'demo-verify'
const NOW = Date.UTC(2026, 10, 25, 12) / 1000
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

let keys: SigningKeys
let kid: string
let privateKey: KeyObject
let stranger: KeyObject
const verifier = (options: { acceptUnsignedTokens?: boolean; now?: () => number } = {}) =>
  createIdTokenVerifier({ keys, defaultProject: 'demo-default', now: () => NOW * 1000, ...options })

beforeAll(() => {
  keys = new SigningKeys({ now: () => NOW * 1000 })
  ;({ kid, privateKey } = keys.active('id'))
  stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
})

const claims = (overrides: Record<string, unknown> = {}) => {
  const base: Record<string, unknown> = {
    admin: false,
    iss: `${ID_TOKEN_ISSUER}${PROJECT}`,
    aud: PROJECT,
    auth_time: NOW - 60,
    user_id: 'alice',
    sub: 'alice',
    iat: NOW - 10,
    exp: NOW - 10 + 3600,
    firebase: { identities: {}, sign_in_provider: 'password' },
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete base[key]
    else base[key] = value
  }
  return base
}
const good = (overrides: Record<string, unknown> = {}) => signJwt(claims(overrides), privateKey, kid)
const verify = (token: string, project = PROJECT) => verifier().verifyIdToken(token, project)

describe('ID token verification (docs/wire/identity.md#verification-checklist)', () => {
  test('#1 a valid RS256 token with a known kid is the caller, all claims in request.auth.token', () => {
    expect(verify(good())).toEqual({ uid: 'alice', token: claims() })
  })

  test('#2/#3 alg none, with or without a kid, is no identity', () => {
    expect(verify(signUnsigned(claims({ admin: true })))).toBeNull()
    expect(verify(`${b64({ alg: 'none', kid })}.${b64(claims())}.`)).toBeNull()
  })

  test('#4 HS256 keyed with the public key is refused', () => {
    const publicPem = keys.publicKey('id', kid)?.export({ type: 'spki', format: 'pem' }) as string
    const input = `${b64({ alg: 'HS256', kid, typ: 'JWT' })}.${b64(claims())}`
    const mac = createHmac('sha256', publicPem).update(input).digest('base64url')
    expect(verify(`${input}.${mac}`)).toBeNull()
  })

  test('#5/#6 no kid, or a kid no one published, is refused', () => {
    expect(verify(signJwt(claims(), privateKey))).toBeNull()
    expect(verify(signJwt(claims(), privateKey, 'f'.repeat(40)))).toBeNull()
  })

  test('#7 a session-set key signing an ID token is refused (the sets are disjoint)', () => {
    const session = keys.active('session')
    expect(verify(signJwt(claims(), session.privateKey, session.kid))).toBeNull()
    expect(verify(signJwt(claims(), session.privateKey, kid))).toBeNull()
  })

  test('#8/#9/#10 another key under a known kid, an edited payload, an empty signature', () => {
    expect(verify(signJwt(claims(), stranger, kid))).toBeNull()
    const [header, , signature] = good().split('.')
    expect(verify(`${header}.${b64(claims({ sub: 'admin', user_id: 'admin', admin: true }))}.${signature}`)).toBeNull()
    expect(verify(`${header}.${b64(claims())}.`)).toBeNull()
  })

  test('#11/#12/#13 aud of another project, aud as an array, iss of another project', () => {
    expect(verify(good({ aud: 'other', iss: `${ID_TOKEN_ISSUER}other` }))).toBeNull()
    expect(verify(good({ aud: [PROJECT] }))).toBeNull()
    expect(verify(good({ iss: `${ID_TOKEN_ISSUER}other` }))).toBeNull()
  })

  test("Auth's default project is accepted by every Firestore project, and only it", () => {
    const token = good({ aud: 'demo-default', iss: `${ID_TOKEN_ISSUER}demo-default` })
    expect(verify(token, 'any-project')?.uid).toBe('alice')
    expect(verify(good(), 'any-project')).toBeNull()
  })

  test('#15/#16 a session cookie or a custom token presented as an ID token', () => {
    const session = keys.active('session')
    expect(
      verify(signJwt(claims({ iss: `${SESSION_COOKIE_ISSUER}${PROJECT}` }), session.privateKey, session.kid)),
    ).toBeNull()
    expect(verify(good({ iss: `${SESSION_COOKIE_ISSUER}${PROJECT}` }))).toBeNull()
    expect(verify(good({ aud: CUSTOM_TOKEN_AUDIENCE }))).toBeNull()
  })

  test('#17/#18/#19 expired (exp = now, now-1), exp missing, exp not a number', () => {
    expect(verify(good({ exp: NOW }))).toBeNull()
    expect(verify(good({ exp: NOW - 1 }))).toBeNull()
    expect(verify(good({ exp: undefined }))).toBeNull()
    expect(verify(good({ exp: String(NOW + 100) }))).toBeNull()
    expect(verify(good({ exp: NOW + 1 }))?.uid).toBe('alice')
  })

  test('#20/#21/#22/#23 iat or auth_time in the future, auth_time missing, nbf in the future', () => {
    expect(verify(good({ iat: NOW + 3600 }))).toBeNull()
    expect(verify(good({ iat: undefined }))).toBeNull()
    expect(verify(good({ auth_time: NOW + 3600 }))).toBeNull()
    expect(verify(good({ auth_time: undefined }))).toBeNull()
    expect(verify(good({ nbf: NOW + 600 }))).toBeNull()
    // Within the 5 s of tolerance for clocks.
    expect(verify(good({ iat: NOW + 4, auth_time: NOW + 4, nbf: NOW + 4 }))?.uid).toBe('alice')
  })

  test('#24 sub empty, 129 characters, missing or not a string', () => {
    expect(verify(good({ sub: '' }))).toBeNull()
    expect(verify(good({ sub: 'x'.repeat(129) }))).toBeNull()
    expect(verify(good({ sub: undefined }))).toBeNull()
    expect(verify(good({ sub: 42 }))).toBeNull()
    expect(verify(good({ sub: 'x'.repeat(128) }))?.uid).toBe('x'.repeat(128))
  })

  test('#29 garbage is no identity', () => {
    for (const junk of ['abc.def', 'a.b.c', '', 'owner', '...', `${b64('x')}.${b64('y')}.z`]) {
      expect(verify(junk)).toBeNull()
    }
  })

  test('with acceptUnsignedTokens, alg none tokens are read as before, signed ones still verified', () => {
    const lax = verifier({ acceptUnsignedTokens: true })
    expect(lax.verifyIdToken(signUnsigned({ sub: 'mock', admin: true }), PROJECT)).toEqual({
      uid: 'mock',
      token: { sub: 'mock', admin: true },
    })
    expect(lax.verifyIdToken(signUnsigned({ user_id: 'legacy' }), PROJECT)?.uid).toBe('legacy')
    expect(lax.verifyIdToken(signJwt(claims(), stranger, kid), PROJECT)).toBeNull()
    expect(lax.verifyIdToken(good(), PROJECT)?.uid).toBe('alice')
  })
})

describe('the cache of verified tokens', () => {
  test('checks the signature once per token, and still the project and the expiry on every hit', () => {
    let now = NOW * 1000
    const lookups = vi.spyOn(keys, 'publicKey')
    const cached = verifier({ now: () => now })
    const token = good()
    lookups.mockClear()
    expect(cached.verifyIdToken(token, PROJECT)?.uid).toBe('alice')
    expect(cached.verifyIdToken(token, PROJECT)?.uid).toBe('alice')
    expect(lookups).toHaveBeenCalledTimes(1)
    expect(cached.verifyIdToken(token, 'other-project')).toBeNull()
    now = (NOW - 10 + 3600) * 1000
    expect(cached.verifyIdToken(token, PROJECT)).toBeNull()
    lookups.mockRestore()
  })

  test('is bounded: the oldest entry makes room', () => {
    const lookups = vi.spyOn(keys, 'publicKey')
    const small = createIdTokenVerifier({ keys, defaultProject: 'd', now: () => NOW * 1000, cacheSize: 2 })
    const tokens = ['a', 'b', 'c'].map((uid) => good({ sub: uid }))
    for (const token of tokens) small.verifyIdToken(token, PROJECT)
    lookups.mockClear()
    small.verifyIdToken(tokens[2] as string, PROJECT)
    expect(lookups).toHaveBeenCalledTimes(0)
    small.verifyIdToken(tokens[0] as string, PROJECT)
    expect(lookups).toHaveBeenCalledTimes(1)
    lookups.mockRestore()
  })
})
