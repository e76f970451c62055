// The verification cases 1–30 of docs/wire/identity.md#verification-checklist, against both key sources:
// emulator-lite's JWKS and Google's x509 maps, each served from 127.0.0.1 by a local key server.
// (Cases 31–40 concern emulator-lite's Auth, not the api's verifier, and are tested there.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { customTokenSigner } from './custom-token.ts'
import { isUnavailable } from './http-error.ts'
import { isInvalidSessionError } from './sessions.ts'
import {
  generateTestKey,
  KEY_PATHS,
  type KeyServer,
  signJwt,
  startKeyServer,
  type TestKey,
} from './token-keys.fixture.ts'
import {
  emulatorKeySource,
  googleKeySource,
  type KeyCacheOptions,
  type KeySource,
  type TokenKind,
  TokenVerifier,
  type UserLookup,
} from './token-verifier.ts'

const PROJECT = 'demo-verify'
const NOW_MS = Date.parse('2026-11-25T12:00:00Z')
const NOW = NOW_MS / 1000
const ISSUER: Record<TokenKind, string> = {
  idToken: `https://securetoken.google.com/${PROJECT}`,
  sessionCookie: `https://session.firebase.google.com/${PROJECT}`,
}

let idKey: TestKey
let sessionKey: TestKey
let strangerKey: TestKey
let server: KeyServer

beforeAll(async () => {
  idKey = generateTestKey()
  sessionKey = generateTestKey()
  strangerKey = generateTestKey()
  server = await startKeyServer({ id: [idKey], session: [sessionKey] })
})
afterAll(() => server.close())

/** Users as firebase-admin's getUser sees them; an unknown uid is `auth/user-not-found`. */
const users = new Map<string, { disabled: boolean; tokensValidAfterTime?: string }>([
  ['user-1', { disabled: false, tokensValidAfterTime: new Date((NOW - 3600) * 1000).toUTCString() }],
  ['revoked', { disabled: false, tokensValidAfterTime: new Date((NOW - 60) * 1000).toUTCString() }],
  ['disabled', { disabled: true }],
])
const getUser: UserLookup = async (uid) => {
  const user = users.get(uid)
  if (!user) throw Object.assign(new Error('no user'), { code: 'auth/user-not-found' })
  return user
}

function claims(kind: TokenKind, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const uid = typeof overrides.sub === 'string' ? overrides.sub : 'user-1'
  return {
    iss: ISSUER[kind],
    aud: PROJECT,
    sub: uid,
    user_id: uid,
    auth_time: NOW - 120,
    iat: NOW - 60,
    exp: kind === 'idToken' ? NOW - 60 + 3600 : NOW - 60 + 5 * 24 * 3600,
    email: 'a@b.dk',
    email_verified: false,
    firebase: { identities: { email: ['a@b.dk'] }, sign_in_provider: 'password' },
    admin: false,
    ...overrides,
  }
}
const headerOf = (key: TestKey) => ({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
const idToken = (overrides: Record<string, unknown> = {}) =>
  signJwt(headerOf(idKey), claims('idToken', overrides), idKey.privateKey)
const sessionCookie = (overrides: Record<string, unknown> = {}) =>
  signJwt(headerOf(sessionKey), claims('sessionCookie', overrides), sessionKey.privateKey)
const withoutClaim = (kind: TokenKind, name: string) => {
  const payload = claims(kind)
  delete payload[name]
  return payload
}

/** Rejected as an invalid token (a 401 for the api), with firebase-admin's code. */
async function expectRejected(verification: Promise<unknown>, code = 'auth/argument-error') {
  const error = await verification.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error, 'the token was accepted').toBeDefined()
  expect(error).toMatchObject({ name: 'TokenRejectedError', code })
  expect(isInvalidSessionError(error)).toBe(true)
  expect(isUnavailable(error)).toBe(false)
}

type Source = {
  name: string
  keys: (cache?: KeyCacheOptions) => KeySource
  /** The paths a verification of each kind fetches. */
  paths: Record<TokenKind, string>
}
const SOURCES: Source[] = [
  {
    name: "emulator-lite's JWKS",
    keys: (cache) => emulatorKeySource(server.host, cache),
    paths: { idToken: KEY_PATHS.idJwks, sessionCookie: KEY_PATHS.sessionJwks },
  },
  {
    name: "Google's x509 certificates",
    keys: (cache) => googleKeySource({ baseUrl: server.googleBaseUrl, ...cache }),
    paths: { idToken: KEY_PATHS.idX509, sessionCookie: KEY_PATHS.sessionX509 },
  },
]

describe.each(SOURCES)('with $name', (source) => {
  const verifierWith = (keys: KeySource) => new TokenVerifier({ projectId: PROJECT, keys, getUser, now: () => NOW_MS })
  const verifier = () => verifierWith(source.keys())

  test('1: a valid ID token and a valid session cookie are accepted, with uid and claims', async () => {
    const tokens = verifier()
    const decoded = await tokens.verifyIdToken(idToken({ admin: true }))
    expect(decoded).toMatchObject({ uid: 'user-1', sub: 'user-1', aud: PROJECT, admin: true, auth_time: NOW - 120 })
    expect(decoded.firebase.sign_in_provider).toBe('password')
    await expect(tokens.verifySessionCookie(sessionCookie())).resolves.toMatchObject({
      uid: 'user-1',
      iss: ISSUER.sessionCookie,
    })
  })

  test('2, 3: alg none is refused, without and with a known kid', async () => {
    const tokens = verifier()
    await expectRejected(tokens.verifyIdToken(signJwt({ alg: 'none', typ: 'JWT' }, claims('idToken'))))
    await expectRejected(tokens.verifyIdToken(signJwt({ alg: 'none', kid: idKey.kid }, claims('idToken'))))
    await expectRejected(tokens.verifySessionCookie(signJwt({ alg: 'none' }, claims('sessionCookie'))))
  })

  test('4: HS256 keyed with the public key (algorithm confusion) is refused', async () => {
    const secret = idKey.publicKey.export({ type: 'spki', format: 'pem' }) as string
    const forged = signJwt({ alg: 'HS256', kid: idKey.kid }, claims('idToken', { admin: true }), {
      hmacSecret: secret,
    })
    await expectRejected(verifier().verifyIdToken(forged))
  })

  test('5: an RS256 token without kid is refused, though one key would match', async () => {
    await expectRejected(verifier().verifyIdToken(signJwt({ alg: 'RS256' }, claims('idToken'), idKey.privateKey)))
  })

  test('6: an unknown kid is refused, and fetches the keys again at most once per cooldown', async () => {
    const tokens = verifier()
    const before = server.requests.get(source.paths.idToken) ?? 0
    await tokens.verifyIdToken(idToken())
    const unknown = signJwt({ alg: 'RS256', kid: 'no-such-key' }, claims('idToken'), strangerKey.privateKey)
    await expectRejected(tokens.verifyIdToken(unknown))
    await expectRejected(tokens.verifyIdToken(unknown))
    expect(server.requests.get(source.paths.idToken)).toBe(before + 1)
  })

  test('a key published after the last fetch is found once the cooldown has passed (rotation)', async () => {
    const tokens = verifierWith(source.keys({ cooldownMs: 0 }))
    await tokens.verifyIdToken(idToken())
    const rotated = generateTestKey()
    const previous = server.published
    server.published = { ...previous, id: [...previous.id, rotated] }
    try {
      const token = signJwt(headerOf(rotated), claims('idToken'), rotated.privateKey)
      await expect(tokens.verifyIdToken(token)).resolves.toMatchObject({ uid: 'user-1' })
      // The old key is still published, so its tokens still verify.
      await expect(tokens.verifyIdToken(idToken())).resolves.toMatchObject({ uid: 'user-1' })
    } finally {
      server.published = previous
    }
  })

  test('7: a session key cannot sign an ID token, nor an ID-token key a session cookie', async () => {
    const tokens = verifier()
    await expectRejected(tokens.verifyIdToken(signJwt(headerOf(sessionKey), claims('idToken'), sessionKey.privateKey)))
    await expectRejected(
      tokens.verifySessionCookie(signJwt(headerOf(idKey), claims('sessionCookie'), idKey.privateKey)),
    )
  })

  test("8: a known kid with another key's signature is refused", async () => {
    await expectRejected(verifier().verifyIdToken(signJwt(headerOf(idKey), claims('idToken'), strangerKey.privateKey)))
  })

  test('9, 10: a payload edited after signing, or no signature at all, is refused', async () => {
    const [header, , signature] = idToken().split('.')
    const edited = Buffer.from(JSON.stringify(claims('idToken', { sub: 'admin-uid', admin: true }))).toString(
      'base64url',
    )
    const tokens = verifier()
    await expectRejected(tokens.verifyIdToken(`${header}.${edited}.${signature}`))
    await expectRejected(tokens.verifyIdToken(`${header}.${edited}.`))
    const [, payload] = idToken().split('.')
    await expectRejected(tokens.verifyIdToken(`${header}.${payload}.`))
  })

  test('11, 12: aud of another project, or an array holding this one, is refused', async () => {
    const tokens = verifier()
    await expectRejected(tokens.verifyIdToken(idToken({ aud: 'other-project' })))
    await expectRejected(tokens.verifyIdToken(idToken({ aud: [PROJECT] })))
    await expectRejected(tokens.verifySessionCookie(sessionCookie({ aud: [PROJECT, 'other'] })))
  })

  test("13: another project's issuer is refused", async () => {
    await expectRejected(verifier().verifyIdToken(idToken({ iss: 'https://securetoken.google.com/other-project' })))
  })

  test('14, 15: an ID token is not a session cookie, nor the reverse (issuer and key set differ)', async () => {
    const tokens = verifier()
    await expectRejected(tokens.verifySessionCookie(idToken()))
    await expectRejected(tokens.verifyIdToken(sessionCookie()))
    // Even with the right issuer, the key set is the other one.
    await expectRejected(tokens.verifySessionCookie(idToken({ iss: ISSUER.sessionCookie })))
  })

  test('16: a custom token is not an ID token', async () => {
    const sign = customTokenSigner({
      type: 'service_account',
      project_id: PROJECT,
      private_key_id: strangerKey.kid,
      private_key: strangerKey.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      client_email: 'api@demo-verify.iam.gserviceaccount.com',
    })
    await expectRejected(verifier().verifyIdToken(await sign('user-1')))
  })

  test('17: exp a second ago or now is expired (no tolerance)', async () => {
    const tokens = verifier()
    await expectRejected(tokens.verifyIdToken(idToken({ exp: NOW - 1 })), 'auth/id-token-expired')
    await expectRejected(tokens.verifyIdToken(idToken({ exp: NOW })), 'auth/id-token-expired')
    await expectRejected(tokens.verifySessionCookie(sessionCookie({ exp: NOW })), 'auth/session-cookie-expired')
    await expect(tokens.verifyIdToken(idToken({ exp: NOW + 1 }))).resolves.toBeDefined()
  })

  test('18, 19: exp missing or not a number is refused', async () => {
    const tokens = verifier()
    await expectRejected(
      tokens.verifyIdToken(signJwt(headerOf(idKey), withoutClaim('idToken', 'exp'), idKey.privateKey)),
    )
    await expectRejected(
      tokens.verifySessionCookie(
        signJwt(headerOf(sessionKey), withoutClaim('sessionCookie', 'exp'), sessionKey.privateKey),
      ),
    )
    await expectRejected(tokens.verifyIdToken(idToken({ exp: String(NOW + 3000) })))
  })

  test('20: iat an hour in the future (or missing) is refused; a few seconds of clock skew are allowed', async () => {
    const tokens = verifier()
    await expectRejected(tokens.verifyIdToken(idToken({ iat: NOW + 3600, exp: NOW + 7200 })))
    await expectRejected(
      tokens.verifyIdToken(signJwt(headerOf(idKey), withoutClaim('idToken', 'iat'), idKey.privateKey)),
    )
    await expect(tokens.verifyIdToken(idToken({ iat: NOW + 3, auth_time: NOW + 3 }))).resolves.toBeDefined()
    // An ID token older than an hour is not one Firebase issued, whatever its exp says.
    await expectRejected(tokens.verifyIdToken(idToken({ iat: NOW - 7200, exp: NOW + 600 })))
  })

  test('21, 22: auth_time in the future or missing is refused (it backs the recent sign-in check)', async () => {
    const tokens = verifier()
    await expectRejected(tokens.verifyIdToken(idToken({ auth_time: NOW + 3600 })))
    await expectRejected(
      tokens.verifyIdToken(signJwt(headerOf(idKey), withoutClaim('idToken', 'auth_time'), idKey.privateKey)),
    )
    await expectRejected(
      tokens.verifySessionCookie(
        signJwt(headerOf(sessionKey), withoutClaim('sessionCookie', 'auth_time'), sessionKey.privateKey),
      ),
    )
  })

  test('23: nbf in the future is refused', async () => {
    await expectRejected(verifier().verifyIdToken(idToken({ nbf: NOW + 600 })))
  })

  test('24: sub empty, 129 characters or missing is refused; 128 characters is a uid', async () => {
    const tokens = verifier()
    await expectRejected(tokens.verifyIdToken(idToken({ sub: '' })))
    await expectRejected(tokens.verifyIdToken(idToken({ sub: 'u'.repeat(129) })))
    await expectRejected(
      tokens.verifyIdToken(signJwt(headerOf(idKey), withoutClaim('idToken', 'sub'), idKey.privateKey)),
    )
    users.set('u'.repeat(128), { disabled: false })
    await expect(tokens.verifyIdToken(idToken({ sub: 'u'.repeat(128) }))).resolves.toMatchObject({
      uid: 'u'.repeat(128),
    })
  })

  test('a token without the firebase object is refused', async () => {
    await expectRejected(verifier().verifyIdToken(idToken({ firebase: undefined })))
    await expectRejected(verifier().verifyIdToken(idToken({ firebase: 'password' })))
  })

  test('25, 26: a sign-in before the revocation is revoked; one in the same second is not', async () => {
    const tokens = verifier()
    await expectRejected(
      tokens.verifyIdToken(idToken({ sub: 'revoked', auth_time: NOW - 61 })),
      'auth/id-token-revoked',
    )
    await expectRejected(
      tokens.verifySessionCookie(sessionCookie({ sub: 'revoked', auth_time: NOW - 61 })),
      'auth/session-cookie-revoked',
    )
    await expect(tokens.verifyIdToken(idToken({ sub: 'revoked', auth_time: NOW - 60 }))).resolves.toBeDefined()
    await expect(
      tokens.verifySessionCookie(sessionCookie({ sub: 'revoked', auth_time: NOW - 30 })),
    ).resolves.toBeDefined()
  })

  test('27, 28: a disabled or deleted user has no valid tokens', async () => {
    const tokens = verifier()
    await expectRejected(tokens.verifyIdToken(idToken({ sub: 'disabled' })), 'auth/user-disabled')
    await expectRejected(tokens.verifySessionCookie(sessionCookie({ sub: 'disabled' })), 'auth/user-disabled')
    await expectRejected(tokens.verifySessionCookie(sessionCookie({ sub: 'deleted' })), 'auth/user-not-found')
  })

  test('29: garbage is refused without fetching keys', async () => {
    const tokens = verifier()
    const before = server.requests.get(source.paths.idToken) ?? 0
    for (const garbage of ['abc.def', 'garbage', '', 'a.b.c', '..', `${'x'.repeat(500)}.${'y'.repeat(500)}.z`]) {
      await expectRejected(tokens.verifyIdToken(garbage))
      await expectRejected(tokens.verifySessionCookie(garbage))
    }
    expect(server.requests.get(source.paths.idToken) ?? 0).toBe(before)
  })

  test('30: a key endpoint that is down, fails or answers non-JSON makes verification unavailable, never valid', async () => {
    for (const mode of ['error', 'not-json', 'error-body'] as const) {
      server.mode = mode
      try {
        const error = await verifier()
          .verifyIdToken(idToken())
          .catch((reason: unknown) => reason)
        expect(error, mode).toMatchObject({ name: 'TokenKeysUnavailableError' })
        expect(isUnavailable(error)).toBe(true)
        expect(isInvalidSessionError(error)).toBe(false)
      } finally {
        server.mode = 'ok'
      }
    }
    const closed = await startKeyServer({ id: [], session: [] })
    await closed.close()
    const keys =
      source.name === SOURCES[0]?.name
        ? emulatorKeySource(closed.host)
        : googleKeySource({ baseUrl: closed.googleBaseUrl })
    const error = await verifierWith(keys)
      .verifySessionCookie(sessionCookie())
      .catch((reason: unknown) => reason)
    expect(error).toMatchObject({ name: 'TokenKeysUnavailableError' })
    expect(isUnavailable(error)).toBe(true)
  })

  test('the keys are fetched once and then served from the cache', async () => {
    const tokens = verifier()
    const before = server.requests.get(source.paths.sessionCookie) ?? 0
    for (let i = 0; i < 5; i++) await tokens.verifySessionCookie(sessionCookie())
    expect(server.requests.get(source.paths.sessionCookie)).toBe(before + 1)
  })
})

test('unsigned tokens are believed only when chosen (the official Auth emulator), with every other check', async () => {
  const unsignedId = (overrides: Record<string, unknown> = {}) =>
    signJwt({ alg: 'none', typ: 'JWT' }, claims('idToken', overrides))
  const strict = new TokenVerifier({
    projectId: PROJECT,
    keys: emulatorKeySource(server.host),
    getUser,
    now: () => NOW_MS,
  })
  await expectRejected(strict.verifyIdToken(unsignedId()))

  const lenient = new TokenVerifier({
    projectId: PROJECT,
    keys: emulatorKeySource(server.host),
    getUser,
    now: () => NOW_MS,
    acceptUnsignedTokens: true,
  })
  await expect(lenient.verifyIdToken(unsignedId())).resolves.toMatchObject({ uid: 'user-1' })
  await expect(lenient.verifySessionCookie(signJwt({ alg: 'none' }, claims('sessionCookie')))).resolves.toMatchObject({
    uid: 'user-1',
  })
  await expectRejected(lenient.verifyIdToken(unsignedId({ aud: [PROJECT] })))
  await expectRejected(lenient.verifyIdToken(unsignedId({ exp: NOW })), 'auth/id-token-expired')
  await expectRejected(lenient.verifyIdToken(unsignedId({ auth_time: NOW + 3600 })))
  await expectRejected(lenient.verifyIdToken(unsignedId({ sub: 'disabled' })), 'auth/user-disabled')
  await expectRejected(lenient.verifyIdToken(`${unsignedId()}c2lnbmF0dXJl`))
  // Signed tokens are still verified: HS256 and a foreign key are refused.
  await expectRejected(
    lenient.verifyIdToken(signJwt({ alg: 'HS256', kid: idKey.kid }, claims('idToken'), { hmacSecret: 'x' })),
  )
  await expectRejected(lenient.verifyIdToken(signJwt(headerOf(idKey), claims('idToken'), strangerKey.privateKey)))
  await expect(lenient.verifyIdToken(idToken())).resolves.toMatchObject({ uid: 'user-1' })
})

test("Google's certificates are kept for the response's max-age, then fetched again", async () => {
  let clock = Date.now()
  const keys = googleKeySource({ baseUrl: server.googleBaseUrl, now: () => clock })
  const tokens = new TokenVerifier({ projectId: PROJECT, keys, getUser, now: () => NOW_MS })
  const fetches = () => server.requests.get(KEY_PATHS.idX509) ?? 0
  const before = fetches()
  await tokens.verifyIdToken(idToken())
  clock += 18_999_000 // the key server sends max-age=19000
  await tokens.verifyIdToken(idToken())
  expect(fetches()).toBe(before + 1)
  clock += 2_000
  await tokens.verifyIdToken(idToken())
  expect(fetches()).toBe(before + 2)
})
