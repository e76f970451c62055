import { createPrivateKey, generateKeyPairSync } from 'node:crypto'
import Database from 'better-sqlite3'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { signUnsigned } from '../../test/forged-token.ts'
import { AuthStore } from './auth-store.ts'
import { signCustomToken } from './custom-token.ts'
import { AuthError } from './errors.ts'
import { checkFirebaseJwt, decodeJwt, ID_TOKEN_ISSUER, SESSION_COOKIE_ISSUER, signJwt } from './identity.ts'
import { loadServiceAccount, SigningKeys, type TrustedServiceAccount } from './keys.ts'
import * as op from './operations.ts'
import { CUSTOM_TOKEN_AUDIENCE, encodeRefreshToken, refreshTokenHash } from './tokens.ts'

// Refresh tokens (docs/wire/identity.md#verification-checklist #31-#33), custom tokens (#34, #35) and ID tokens sent to Auth's
// own endpoints (#25-#28, #36), on the operations with an in-memory store.
const PROJECT = 'demo-ops'
const PASSWORD = 'hemmelig1'
let keys: SigningKeys
let serviceAccount: TrustedServiceAccount
let db: Database.Database
let store: AuthStore

beforeAll(() => {
  keys = new SigningKeys()
  serviceAccount = loadServiceAccount(PROJECT)
  expect(serviceAccount.key.client_email).toContain('@') // made now, not inside a test
})
beforeEach(() => {
  db = new Database(':memory:')
  store = new AuthStore(db)
})
afterEach(() => {
  vi.useRealTimers()
  db.close()
})

const ctx = (options: { privileged?: boolean; acceptUnsignedTokens?: boolean } = {}): op.AuthContext => ({
  store,
  project: PROJECT,
  privileged: options.privileged ?? false,
  signing: { keys, serviceAccount, acceptUnsignedTokens: options.acceptUnsignedTokens ?? false },
})
const admin = () => ctx({ privileged: true })

/** The error message an operation fails with, or 'ok'. */
async function outcome(run: () => unknown): Promise<string> {
  try {
    await run()
    return 'ok'
  } catch (error) {
    if (error instanceof AuthError) return error.message
    throw error
  }
}
const refresh = (refreshToken: string, options?: Parameters<typeof ctx>[0]) =>
  op.grantToken(ctx(options), { grantType: 'refresh_token', refreshToken })

async function signedIn(uid = 'alice') {
  await op.signUp(admin(), { localId: uid, email: `${uid}@example.dk`, password: PASSWORD })
  return op.signInWithPassword(ctx(), { email: `${uid}@example.dk`, password: PASSWORD })
}

describe('refresh tokens', () => {
  test('are opaque 256-bit values, stored only as a hash, and keep the sign-in time as auth_time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.UTC(2026, 10, 25, 8))
    const { refreshToken, idToken } = await signedIn()
    expect(refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const rows = JSON.stringify(db.prepare('SELECT * FROM auth_refresh_tokens').all())
    expect(rows).not.toContain(refreshToken)
    expect(rows).toContain('"uid":"alice"')
    const signInTime = decodeJwt(idToken)?.payload.auth_time
    vi.setSystemTime(Date.UTC(2026, 10, 25, 10))
    const refreshed = refresh(refreshToken)
    expect(refreshed.refresh_token).toBe(refreshToken)
    const claims = decodeJwt(refreshed.id_token)?.payload
    expect(claims?.auth_time).toBe(signInTime)
    expect(claims?.iat).toBe(Date.UTC(2026, 10, 25, 10) / 1000)
    expect(checkFirebaseJwt(refreshed.id_token, keys, 'id', ID_TOKEN_ISSUER, [PROJECT], Date.now()).ok).toBe(true)
  })

  test('#31 a forged base64-JSON token naming a user is refused, unless unsigned tokens are accepted', async () => {
    await signedIn()
    const forged = encodeRefreshToken({
      localId: 'alice',
      provider: 'password',
      extraClaims: { admin: true },
      projectId: PROJECT,
    })
    expect(await outcome(() => refresh(forged))).toBe('INVALID_REFRESH_TOKEN')
    expect(await outcome(() => refresh('x'.repeat(43)))).toBe('INVALID_REFRESH_TOKEN')
    expect(await outcome(() => refresh(forged, { acceptUnsignedTokens: true }))).toBe('ok')
  })

  test('#32 revokeRefreshTokens and a password change end them (TOKEN_EXPIRED); the changer keeps a new one', async () => {
    const first = await signedIn()
    const second = await op.signInWithPassword(ctx(), { email: 'alice@example.dk', password: PASSWORD })
    await op.update(admin(), { localId: 'alice', validSince: String(Math.floor(Date.now() / 1000)) })
    expect(await outcome(() => refresh(first.refreshToken))).toBe('TOKEN_EXPIRED')
    expect(await outcome(() => refresh(second.refreshToken))).toBe('TOKEN_EXPIRED')

    const device1 = await op.signInWithPassword(ctx(), { email: 'alice@example.dk', password: PASSWORD })
    const device2 = await op.signInWithPassword(ctx(), { email: 'alice@example.dk', password: PASSWORD })
    const changed = await op.update(ctx(), { idToken: device1.idToken, password: 'nyt-hemmeligt' })
    expect(await outcome(() => refresh(device1.refreshToken))).toBe('TOKEN_EXPIRED')
    expect(await outcome(() => refresh(device2.refreshToken))).toBe('TOKEN_EXPIRED')
    expect(await outcome(() => refresh(changed.refreshToken as string))).toBe('ok')
  })

  test('one device signing out ends only its own token', async () => {
    const phone = await signedIn()
    const laptop = await op.signInWithPassword(ctx(), { email: 'alice@example.dk', password: PASSWORD })
    store.revokeRefreshSession(refreshTokenHash(phone.refreshToken))
    expect(await outcome(() => refresh(phone.refreshToken))).toBe('TOKEN_EXPIRED')
    expect(await outcome(() => refresh(laptop.refreshToken))).toBe('ok')
  })

  test('#33 disabled → USER_DISABLED, deleted → USER_NOT_FOUND, and a new account with the same uid does not revive it', async () => {
    const { refreshToken } = await signedIn()
    await op.update(admin(), { localId: 'alice', disableUser: true })
    expect(await outcome(() => refresh(refreshToken))).toBe('USER_DISABLED')
    await op.update(admin(), { localId: 'alice', disableUser: false })
    expect(await outcome(() => refresh(refreshToken))).toBe('TOKEN_EXPIRED')

    const other = await signedIn('bob')
    await op.deleteAccount(admin(), { localId: 'bob' })
    expect(await outcome(() => refresh(other.refreshToken))).toBe('USER_NOT_FOUND')
    await op.signUp(admin(), { localId: 'bob', email: 'bob@example.dk', password: PASSWORD })
    expect(await outcome(() => refresh(other.refreshToken))).toBe('TOKEN_EXPIRED')
  })

  test('revoked sessions are forgotten after a while, and their tokens stay refused', async () => {
    const { refreshToken } = await signedIn()
    await op.update(admin(), { localId: 'alice', disableUser: true })
    await op.update(admin(), { localId: 'alice', disableUser: false })
    expect(store.pruneRevokedSessions(Date.now() - 1000)).toBe(0)
    expect(store.pruneRevokedSessions(Date.now() + 1000)).toBe(1)
    expect(await outcome(() => refresh(refreshToken))).toBe('INVALID_REFRESH_TOKEN')
  })

  test("another project's token is unknown here", async () => {
    const { refreshToken } = await signedIn()
    expect(
      await outcome(() =>
        op.grantToken({ ...ctx(), project: 'demo-other' }, { grantType: 'refresh_token', refreshToken }),
      ),
    ).toBe('INVALID_REFRESH_TOKEN')
  })
})

describe('custom tokens', () => {
  const now = () => Math.floor(Date.now() / 1000)
  const signIn = (token: string, options?: Parameters<typeof ctx>[0]) =>
    outcome(() => op.signInWithCustomToken(ctx(options), { token }))
  const payload = (overrides: Record<string, unknown> = {}) => ({
    iss: serviceAccount.key.client_email,
    sub: serviceAccount.key.client_email,
    aud: CUSTOM_TOKEN_AUDIENCE,
    iat: now(),
    exp: now() + 3600,
    uid: 'kunde',
    ...overrides,
  })
  const ownKey = () => serviceAccount.key.private_key

  test('signed by the service account: accepted, with its claims in the ID token', async () => {
    const result = op.signInWithCustomToken(ctx(), {
      token: signCustomToken(serviceAccount.key, 'kunde', { plan: 'pro' }),
    })
    expect(result.isNewUser).toBe(true)
    expect(decodeJwt(result.idToken)?.payload).toMatchObject({
      sub: 'kunde',
      plan: 'pro',
      firebase: { sign_in_provider: 'custom' },
    })
    // firebase-admin signs without a kid; that is accepted too.
    expect(await signIn(signJwt(payload(), createPrivateKey(ownKey())))).toBe('ok')
  })

  test('#34 unsigned (alg none, or plain JSON) is refused unless unsigned tokens are accepted', async () => {
    const unsigned = signUnsigned(payload({ uid: 'admin', claims: { admin: true } }))
    expect(await signIn(unsigned)).toMatch(/^INVALID_CUSTOM_TOKEN/)
    expect(await signIn(JSON.stringify({ uid: 'admin' }))).toMatch(/^INVALID_CUSTOM_TOKEN/)
    expect(store.get(PROJECT, 'admin')).toBeUndefined()
    expect(await signIn(unsigned, { acceptUnsignedTokens: true })).toBe('ok')
  })

  test('#35 another key, another account, expired, too long, a future iat, a bad uid, a wrong kid', async () => {
    const mine = createPrivateKey(ownKey())
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
    expect(await signIn(signJwt(payload(), other))).toMatch(/^INVALID_CUSTOM_TOKEN/)
    expect(await signIn(signJwt(payload(), other, serviceAccount.key.private_key_id))).toMatch(/^INVALID_CUSTOM_TOKEN/)
    expect(await signIn(signJwt(payload(), mine, 'f'.repeat(40)))).toMatch(/^INVALID_CUSTOM_TOKEN/)
    const stranger = 'someone@evil.iam.gserviceaccount.com'
    expect(await signIn(signJwt(payload({ iss: stranger, sub: stranger }), other))).toBe('CREDENTIAL_MISMATCH')
    expect(await signIn(signJwt(payload({ iat: now() - 7200, exp: now() - 3600 }), mine))).toMatch(
      /^INVALID_CUSTOM_TOKEN/,
    )
    expect(await signIn(signJwt(payload({ exp: now() + 3601 }), mine))).toMatch(/^INVALID_CUSTOM_TOKEN/)
    expect(await signIn(signJwt(payload({ iat: now() + 600, exp: now() + 1200 }), mine))).toMatch(
      /^INVALID_CUSTOM_TOKEN/,
    )
    expect(await signIn(signJwt(payload({ uid: '' }), mine))).toMatch(/^INVALID_CUSTOM_TOKEN/)
    expect(await signIn(signJwt(payload({ uid: 'x'.repeat(129) }), mine))).toMatch(/^INVALID_CUSTOM_TOKEN/)
    expect(await signIn(signJwt(payload({ aud: PROJECT }), mine))).toMatch(/^INVALID_CUSTOM_TOKEN : \(\(Invalid aud/)
    expect(await signIn(signJwt(payload({ claims: { firebase: {} } }), mine))).toBe('FORBIDDEN_CLAIM : firebase')
    expect(store.count(PROJECT)).toBe(0)
  })
})

describe('ID tokens sent to Auth', () => {
  test('#36 a forged, unsigned or expired token is refused by lookup, update, delete and createSessionCookie', async () => {
    const { idToken } = await signedIn()
    const forged = signUnsigned(decodeJwt(idToken)?.payload ?? {})
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
    const wrongKey = signJwt(decodeJwt(idToken)?.payload ?? {}, other, keys.active('id').kid)
    for (const token of [forged, wrongKey, 'garbage']) {
      expect(await outcome(() => op.lookup(ctx(), { idToken: token }))).toBe('INVALID_ID_TOKEN')
      expect(await outcome(() => op.update(ctx(), { idToken: token, displayName: 'x' }))).toBe('INVALID_ID_TOKEN')
      expect(await outcome(() => op.deleteAccount(ctx(), { idToken: token }))).toBe('INVALID_ID_TOKEN')
      expect(await outcome(() => op.createSessionCookie(admin(), { idToken: token }))).toBe('INVALID_ID_TOKEN')
    }
    expect(store.get(PROJECT, 'alice')?.displayName).toBeUndefined()
    expect(await outcome(() => op.lookup(ctx({ acceptUnsignedTokens: true }), { idToken: forged }))).toBe('ok')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 3601_000)
    expect(await outcome(() => op.lookup(ctx(), { idToken }))).toBe('TOKEN_EXPIRED')
    expect(await outcome(() => op.createSessionCookie(admin(), { idToken }))).toBe('TOKEN_EXPIRED')
  })

  test('#25-#28 revoked, disabled, deleted users', async () => {
    const { idToken } = await signedIn()
    expect(await outcome(() => op.lookup(ctx(), { idToken }))).toBe('ok')
    await op.update(admin(), { localId: 'alice', disableUser: true })
    expect(await outcome(() => op.lookup(ctx(), { idToken }))).toBe('USER_DISABLED')
    await op.update(admin(), {
      localId: 'alice',
      disableUser: false,
      validSince: String(Math.floor(Date.now() / 1000) + 1),
    })
    expect(await outcome(() => op.lookup(ctx(), { idToken }))).toBe('TOKEN_EXPIRED')
    await op.deleteAccount(admin(), { localId: 'alice' })
    expect(await outcome(() => op.lookup(ctx(), { idToken }))).toBe('USER_NOT_FOUND')
  })

  test('a session cookie is signed by the session set, with the ID token claims and its own lifetime', async () => {
    const { idToken } = await signedIn()
    const { sessionCookie } = op.createSessionCookie(admin(), { idToken, validDuration: 600 })
    const header = decodeJwt(sessionCookie)?.header
    expect(header).toEqual({ alg: 'RS256', kid: keys.active('session').kid, typ: 'JWT' })
    const checked = checkFirebaseJwt(sessionCookie, keys, 'session', SESSION_COOKIE_ISSUER, [PROJECT], Date.now())
    expect(checked.ok && checked.claims.exp === (checked.claims.iat as number) + 600).toBe(true)
    expect(checkFirebaseJwt(sessionCookie, keys, 'id', ID_TOKEN_ISSUER, [PROJECT], Date.now()).ok).toBe(false)
  })
})
