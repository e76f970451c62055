// "Log ud" ends this device's Firebase refresh token too (issue 32 point 8, ADR 0025): the web sends
// `auth.currentUser.refreshToken` with the logout, and the api asks emulator-lite's admin listener
// to revoke that one token. The same account's other device keeps its session and its token.
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { call, createTestApi, createTestUser, type TestApi, type TestUser } from '../../testing.ts'

let api: TestApi
let user: TestUser
beforeAll(async () => {
  api = createTestApi('demo-api-logout-device')
  user = await createTestUser(api.firebase, { userRole: 'user', locations: ['loc-a'] })
})
afterAll(() => api.close())

// The official Auth emulator (ACCEPT_UNSIGNED_TOKENS) has no revocation of one refresh token.
const officialAuth = process.env.ACCEPT_UNSIGNED_TOKENS === 'true'
const authUrl = (path: string) => `http://${api.env.FIREBASE_AUTH_EMULATOR_HOST}${path}?key=demo-api-key`

/** A device: signed in to Auth as the web SDK is (its refresh token) and logged in to the api (its cookie). */
async function device(): Promise<{ refreshToken: string; cookie: string }> {
  const response = await fetch(authUrl('/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password, returnSecureToken: true }),
  })
  const { idToken, refreshToken } = (await response.json()) as { idToken: string; refreshToken: string }
  const login = await call(api.app, 'POST', '/api/auth/login', { body: { idToken } })
  expect(login.status).toBe(200)
  const session = /session=([^;]+)/.exec(login.headers.getSetCookie().join('\n'))?.[1]
  return { refreshToken, cookie: `session=${session}; userId=${user.uid}` }
}

/** 'ok', or Auth's refusal, for a refresh with this token (what the SDK does every hour). */
async function refresh(refreshToken: string): Promise<string> {
  const response = await fetch(authUrl('/securetoken.googleapis.com/v1/token'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  })
  if (response.ok) return 'ok'
  return ((await response.json()) as { error: { message: string } }).error.message
}

const isValid = async (cookie: string) =>
  ((await (await call(api.app, 'POST', '/api/auth/validate', { cookie })).json()) as { isValid: boolean }).isValid

test.skipIf(officialAuth)(
  "logout with this device's refresh token ends that token; the other device's session and token carry on",
  async () => {
    const office = await device()
    await sleep(1_100) // Firebase's cookies carry whole seconds: two sign-ins in one second share one.
    const ward = await device()
    const logout = await call(api.app, 'POST', '/api/auth/logout', {
      cookie: office.cookie,
      body: { refreshToken: office.refreshToken },
    })
    expect(logout.status).toBe(200)
    expect(await logout.json()).toEqual({ success: true })
    expect(await refresh(office.refreshToken)).toBe('TOKEN_EXPIRED')
    expect(await refresh(ward.refreshToken)).toBe('ok')
    expect(await isValid(ward.cookie)).toBe(true)
  },
)

test('logout without a refresh token leaves that token alone (as before); a malformed body never fails it', async () => {
  const office = await device()
  expect((await call(api.app, 'POST', '/api/auth/logout', { cookie: office.cookie })).status).toBe(200)
  expect(await refresh(office.refreshToken)).toBe('ok')
  for (const body of [
    'not json',
    { refreshToken: 42 },
    { refreshToken: '' },
    { refreshToken: 'x'.repeat(4097) },
    { refreshToken: 'an-unknown-token' },
  ]) {
    const other = await device()
    const response = await call(api.app, 'POST', '/api/auth/logout', { cookie: other.cookie, body })
    expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(200)
    await sleep(1_100)
    expect(await isValid(other.cookie)).toBe(false)
  }
})
