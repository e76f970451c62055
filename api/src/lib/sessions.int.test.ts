// The price of the session cache, stated against the real Auth emulator: a session ended outside
// this api instance (another instance, the Firebase console, disabling the user) keeps validating
// here for at most SESSION_CHECK_CACHE_MS. Logout through the api is covered in auth.int.test.ts.
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  call,
  createTestApi,
  createTestUser,
  independentVerifier,
  jwtPayload,
  loginAs,
  type TestApi,
} from '../testing.ts'
import type { Firebase } from './firebase.ts'

const CACHE_MS = 1_000
/** Room for the Auth round-trip that notices the revocation, on a loaded machine. */
const MARGIN_MS = 1_000

let api: TestApi

beforeAll(() => {
  api = createTestApi('demo-api-sessions', { sessionCheckCacheMs: CACHE_MS })
})
afterAll(() => api.close())

const isValid = async (cookie: string) => {
  const response = await call(api.app, 'POST', '/api/auth/validate', { cookie })
  expect(response.status).toBe(200)
  return ((await response.json()) as { isValid: boolean }).isValid
}

const endings: [string, (firebase: Firebase, uid: string) => Promise<unknown>][] = [
  ['refresh tokens revoked', (firebase, uid) => firebase.auth.revokeRefreshTokens(uid)],
  ['user disabled', (firebase, uid) => firebase.auth.updateUser(uid, { disabled: true })],
]

test.each(endings)('a session ended elsewhere (%s) stops validating within SESSION_CHECK_CACHE_MS', async (_, end) => {
  const user = await createTestUser(api.firebase, { userRole: 'user' })
  const { cookie, session } = await loginAs(api, user)
  // Firebase compares revocations with the sign-in in whole seconds: revoke in a later second.
  const authTimeMs = (jwtPayload(session).auth_time as number) * 1000
  await sleep(Math.max(0, authTimeMs + 1_000 - Date.now() + 50))

  const getSelf = () => call(api.app, 'GET', `/api/user/getUserById?id=${user.uid}`, { cookie })
  expect((await getSelf()).status).toBe(200)
  expect(await isValid(cookie)).toBe(true) // this instance now holds a positive answer

  // Elsewhere: straight through firebase-admin, not through this api.
  await end(api.firebase, user.uid)
  const endedAt = Date.now()
  // The trade-off: the cached answer still stands right after the revocation…
  expect(await isValid(cookie)).toBe(true)
  // …but no longer than the cache time.
  let stillValid = true
  while (stillValid && Date.now() - endedAt <= CACHE_MS + MARGIN_MS) {
    await sleep(50)
    stillValid = await isValid(cookie)
  }
  expect(stillValid, `still valid ${Date.now() - endedAt} ms after the session was ended`).toBe(false)

  const response = await getSelf()
  expect(response.status).toBe(401)
  expect(await response.json()).toEqual({ error: { code: 'unauthenticated', message: 'Du er ikke logget ind.' } })
  // And not merely in this instance's cache: Auth itself says so.
  await expect(independentVerifier(api).verifySessionCookie(session)).rejects.toMatchObject({
    name: 'TokenRejectedError',
  })
})
