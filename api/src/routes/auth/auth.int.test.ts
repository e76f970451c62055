import { generateKeyPairSync } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { CustomTokenResponseSchema, ValidateResponseSchema } from '@bosted/domain/api'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type App, createApp } from '../../app.ts'
import { appConfigFromEnv, readEnv } from '../../env.ts'
import { createFirebase } from '../../lib/firebase.ts'
import { signJwt } from '../../lib/token-keys.fixture.ts'
import {
  CROSS_SITE_ERROR,
  CROSS_SITE_HEADERS,
  call,
  closedPortHost,
  cookiesOf,
  createTestApi,
  createTestUser,
  cuttableProxy,
  jwtPayload,
  loginAs,
  signIn,
  type TestApi,
  type TestUser,
  unsignedJwt,
} from '../../testing.ts'

let api: TestApi
let employee: TestUser

beforeAll(async () => {
  api = createTestApi('demo-api-auth', {
    loginRateLimit: { max: 3, windowMs: 60_000 },
    accountRateLimit: { max: 3, windowMs: 60_000 },
  })
  employee = await createTestUser(api.firebase, { userRole: 'user', locations: ['loc-a'] })
})
afterAll(() => api.close())

const validate = (options: Parameters<typeof call>[3] = {}) => call(api.app, 'POST', '/api/auth/validate', options)
const isValid = async (response: Response) => ValidateResponseSchema.parse(await response.json()).isValid
/** Both cookies deleted on the path they were set on, so the browser drops them. */
function expectBothCleared(response: Response) {
  const { values, raw } = cookiesOf(response)
  for (const name of ['session', 'userId'] as const) {
    expect(values[name], name).toBe('')
    expect(raw[name], name).toMatch(/Max-Age=0/)
    expect(raw[name], name).toMatch(/Path=\/(;|$)/)
  }
}
// Each test that logs in uses its own address, so the login rate limit (3 failures here) only bites where meant.
let address = 0
const from = () => ({ 'x-real-ip': `10.0.0.${++address}` })

test('login verifies the ID token and sets an HttpOnly session cookie and a readable userId cookie', async () => {
  const idToken = await signIn(api.env, employee)
  const response = await call(api.app, 'POST', '/api/auth/login', { body: { idToken }, headers: from() })
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ userId: employee.uid })
  const { values, raw } = cookiesOf(response)
  expect(values.userId).toBe(employee.uid)
  expect(jwtPayload(values.session ?? '')).toMatchObject({ sub: employee.uid, iss: expect.stringContaining('session') })
  expect(raw.session).toMatch(/HttpOnly/)
  expect(raw.session).toMatch(/SameSite=Lax/)
  expect(raw.session).toMatch(/Path=\//)
  expect(raw.session).toMatch(/Max-Age=432000/)
  // Served from 127.0.0.1 over http: a Secure cookie would be dropped by the browser.
  expect(raw.session).not.toMatch(/Secure/)
  // userId is only a presence marker for the web's route guard: readable by scripts, same scope.
  expect(raw.userId).not.toMatch(/HttpOnly/)
  expect(raw.userId).toMatch(/SameSite=Lax/)
  expect(raw.userId).toMatch(/Path=\/(;|$)/)
  expect(raw.userId).toMatch(/Max-Age=432000/)
  expect(raw.userId).not.toMatch(/Secure/)
})

test('login marks both cookies Secure when the host is not localhost', async () => {
  const idToken = await signIn(api.env, employee)
  const response = await call(api.app, 'POST', '/api/auth/login', {
    body: { idToken },
    url: 'https://bosted.example.dk',
    headers: from(),
  })
  expect(response.status).toBe(200)
  const { raw } = cookiesOf(response)
  expect(raw.session).toMatch(/Secure/)
  expect(raw.userId).toMatch(/Secure/)
})

test('login rejects a forged, malformed or missing ID token', async () => {
  const forged = unsignedJwt({
    iss: `https://securetoken.google.com/${api.env.FIREBASE_PROJECT_ID}`,
    aud: 'demo-other-project',
    sub: employee.uid,
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 3600,
    auth_time: Math.floor(Date.now() / 1000),
  })
  const headers = from()
  for (const idToken of [forged, 'not-a-token']) {
    const response = await call(api.app, 'POST', '/api/auth/login', { body: { idToken }, headers })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: { code: 'unauthenticated', message: 'Du er ikke logget ind.' } })
    expect(response.headers.getSetCookie()).toEqual([])
  }
  const missing = await call(api.app, 'POST', '/api/auth/login', { body: {}, headers: from() })
  expect(missing.status).toBe(400)
  const body = (await missing.json()) as { error: { code: string; fields: Record<string, string[]> } }
  expect(body.error.code).toBe('invalid_request')
  expect(Object.keys(body.error.fields)).toEqual(['idToken'])
})

// The official Auth emulator (AUTH_EMULATOR=official) signs nothing and publishes no keys: there the
// api believes unsigned tokens by choice (ACCEPT_UNSIGNED_TOKENS), and forgery cannot be told apart.
const acceptsUnsigned = readEnv().ACCEPT_UNSIGNED_TOKENS === 'true'

test.skipIf(acceptsUnsigned)(
  'login and validate refuse well-formed tokens that emulator-lite did not sign (issue 27)',
  async () => {
    const now = Math.floor(Date.now() / 1000)
    const project = api.env.FIREBASE_PROJECT_ID
    const claimsAs = (issuer: string) => ({
      iss: `${issuer}/${project}`,
      aud: project,
      sub: employee.uid,
      user_id: employee.uid,
      auth_time: now,
      iat: now,
      exp: now + 3600,
      admin: true,
      userRole: 'admin',
      firebase: { identities: {}, sign_in_provider: 'password' },
    })
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const forgeries = (issuer: string) => [
      signJwt({ alg: 'none', typ: 'JWT' }, claimsAs(issuer)),
      signJwt({ alg: 'RS256', kid: 'not-a-published-key', typ: 'JWT' }, claimsAs(issuer), stranger.privateKey),
      signJwt({ alg: 'HS256', kid: 'any', typ: 'JWT' }, claimsAs(issuer), { hmacSecret: 'guessed' }),
    ]
    for (const idToken of forgeries('https://securetoken.google.com')) {
      const response = await call(api.app, 'POST', '/api/auth/login', { body: { idToken }, headers: from() })
      expect(response.status).toBe(401)
      expect(response.headers.getSetCookie()).toEqual([])
    }
    for (const session of forgeries('https://session.firebase.google.com')) {
      expect(await isValid(await validate({ cookie: `session=${session}` }))).toBe(false)
      expect(await isValid(await validate({ body: { token: session } }))).toBe(false)
    }
  },
)

test('login answers 429 after too many failed attempts from one address, and other addresses still get in', async () => {
  const headers = { 'x-real-ip': '192.0.2.7' }
  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await call(api.app, 'POST', '/api/auth/login', { body: { idToken: 'x' }, headers })
    expect(response.status).toBe(401)
  }
  const limited = await call(api.app, 'POST', '/api/auth/login', { body: { idToken: 'x' }, headers })
  expect(limited.status).toBe(429)
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(await limited.json()).toEqual({
    error: { code: 'too_many_requests', message: 'For mange forsøg. Vent lidt, og prøv igen.' },
  })
  const other = await call(api.app, 'POST', '/api/auth/login', {
    body: { idToken: await signIn(api.env, employee) },
    headers: { 'x-real-ip': '192.0.2.8' },
  })
  expect(other.status).toBe(200)
})

test('one bad client refilling its window from the office address never keeps a colleague there from signing in', async () => {
  const office = { 'x-real-ip': '192.0.2.30' }
  // The bad client keeps its window full (3 garbage tokens allowed here), then goes on.
  for (let attempt = 0; attempt < 8; attempt++) {
    await call(api.app, 'POST', '/api/auth/login', { body: { idToken: `garbage-${attempt}` }, headers: office })
  }
  const garbage = await call(api.app, 'POST', '/api/auth/login', { body: { idToken: 'garbage' }, headers: office })
  expect(garbage.status).toBe(429)
  for (let colleague = 0; colleague < 3; colleague++) {
    const response = await call(api.app, 'POST', '/api/auth/login', {
      body: { idToken: await signIn(api.env, employee) },
      headers: office,
    })
    expect(response.status).toBe(200)
  }
})

test('a flood of garbage tokens from one address is throttled with 429 and a Danish message', async () => {
  const headers = { 'x-real-ip': '192.0.2.31' }
  const statuses: number[] = []
  for (let attempt = 0; attempt < 20; attempt++) {
    const response = await call(api.app, 'POST', '/api/auth/login', { body: { idToken: 'a.b.c' }, headers })
    statuses.push(response.status)
    if (response.status === 429) {
      expect(await response.json()).toEqual({
        error: { code: 'too_many_requests', message: 'For mange forsøg. Vent lidt, og prøv igen.' },
      })
    }
  }
  expect(statuses).toEqual([401, 401, 401, ...Array(17).fill(429)])
})

test('a token that verifies but is refused counts against its account, not the office address', async () => {
  const refused = await createTestUser(api.firebase, { userRole: 'user', locations: ['loc-a'] })
  await api.firebase.db.collection('users').doc(refused.uid).update({ 'settings.disabled': true })
  const office = { 'x-real-ip': '192.0.2.40' }
  const statuses: number[] = []
  for (let attempt = 0; attempt < 4; attempt++) {
    const idToken = await signIn(api.env, refused)
    // From a different address each time: the count follows the account.
    statuses.push((await call(api.app, 'POST', '/api/auth/login', { body: { idToken }, headers: from() })).status)
  }
  expect(statuses).toEqual([403, 403, 403, 429])
  const colleague = await call(api.app, 'POST', '/api/auth/login', {
    body: { idToken: await signIn(api.env, employee) },
    headers: office,
  })
  expect(colleague.status).toBe(200)
})

test('successful sign-ins never count against an address: a whole shift signs in from one office', async () => {
  const headers = { 'x-real-ip': '192.0.2.20' }
  for (let attempt = 0; attempt < 6; attempt++) {
    const response = await call(api.app, 'POST', '/api/auth/login', {
      body: { idToken: await signIn(api.env, employee) },
      headers,
    })
    expect(response.status).toBe(200)
  }
})

test('session lifecycle: login, validate true, logout, validate false with the same cookie', async () => {
  const { cookie, session } = await loginAs(api, employee)
  expect(await isValid(await validate({ cookie }))).toBe(true)
  expect(await isValid(await validate({ body: { token: session } }))).toBe(true)

  const logout = await call(api.app, 'POST', '/api/auth/logout', { cookie })
  expect(logout.status).toBe(200)
  expectBothCleared(logout)

  expect(await isValid(await validate({ cookie }))).toBe(false)
  expect(await isValid(await validate({ body: { token: session } }))).toBe(false)
  expect((await call(api.app, 'POST', '/api/auth/refresh', { cookie })).status).toBe(401)
})

test('signing in again right after logout gives a valid session', async () => {
  // Usually within the same second as the logout, when Firebase hands out the very same cookie again.
  const first = await loginAs(api, employee)
  expect((await call(api.app, 'POST', '/api/auth/logout', { cookie: first.cookie })).status).toBe(200)
  const second = await loginAs(api, employee)
  expect(await isValid(await validate({ cookie: second.cookie }))).toBe(true)
})

test('logout ends that cookie for every api instance, also one started afterwards', async () => {
  const { cookie } = await loginAs(api, employee)
  const logout = await call(api.app, 'POST', '/api/auth/logout', { cookie })
  expect(await logout.text()).toBe('{"success":true}')
  const other = createTestApi('demo-api-auth')
  try {
    expect(await isValid(await call(other.app, 'POST', '/api/auth/validate', { cookie }))).toBe(false)
    expect((await call(other.app, 'POST', '/api/auth/refresh', { cookie })).status).toBe(401)
  } finally {
    await other.close()
  }
})

test('logout on one device leaves the same account signed in on another device (issue 32)', async () => {
  const office = await loginAs(api, employee)
  // Firebase's cookies carry whole seconds: two sign-ins in one second are the very same cookie.
  await sleep(1_100)
  const ward = await loginAs(api, employee)
  expect(ward.session).not.toBe(office.session)
  expect(await isValid(await validate({ cookie: ward.cookie }))).toBe(true)

  expect((await call(api.app, 'POST', '/api/auth/logout', { cookie: office.cookie })).status).toBe(200)
  await sleep(1_100)
  expect(await isValid(await validate({ cookie: office.cookie }))).toBe(false)
  expect(await isValid(await validate({ cookie: ward.cookie }))).toBe(true)
  // Firebase itself revoked nothing: a fresh instance (no cache) agrees, and the ward can refresh.
  const other = createTestApi('demo-api-auth')
  try {
    expect(await isValid(await call(other.app, 'POST', '/api/auth/validate', { cookie: ward.cookie }))).toBe(true)
    expect(await isValid(await call(other.app, 'POST', '/api/auth/validate', { cookie: office.cookie }))).toBe(false)
  } finally {
    await other.close()
  }
  expect((await call(api.app, 'POST', '/api/auth/refresh', { cookie: ward.cookie })).status).toBe(200)
})

test('"Log ud på alle enheder" ends every session of the account', async () => {
  const user = await createTestUser(api.firebase, { userRole: 'user', locations: ['loc-a'] })
  const office = await loginAs(api, user)
  await sleep(1_100)
  const ward = await loginAs(api, user)
  await sleep(1_100)
  const response = await call(api.app, 'POST', '/api/auth/logout-everywhere', { cookie: office.cookie })
  expect(response.status).toBe(200)
  expectBothCleared(response)
  expect(await isValid(await validate({ cookie: office.cookie }))).toBe(false)
  expect(await isValid(await validate({ cookie: ward.cookie }))).toBe(false)
  expect((await call(api.app, 'POST', '/api/auth/logout-everywhere')).status).toBe(401)
})

test("token gives a session's holder a custom token for its own uid; without a session it is 401", async () => {
  const { cookie } = await loginAs(api, employee)
  const response = await call(api.app, 'POST', '/api/auth/token', { cookie })
  expect(response.status).toBe(200)
  expect(response.headers.get('cache-control')).toBe('no-store')
  const { customToken } = CustomTokenResponseSchema.parse(await response.json())
  expect(jwtPayload(customToken).uid).toBe(employee.uid)
  expect((await call(api.app, 'POST', '/api/auth/token')).status).toBe(401)
  expect((await call(api.app, 'POST', '/api/auth/token', { cookie: 'session=garbage' })).status).toBe(401)
})

test('validate answers false, never an error, for a missing, malformed, expired or foreign session', async () => {
  const now = Math.floor(Date.now() / 1000)
  const expired = unsignedJwt({
    iss: `https://session.firebase.google.com/${api.env.FIREBASE_PROJECT_ID}`,
    aud: api.env.FIREBASE_PROJECT_ID,
    sub: employee.uid,
    iat: now - 7200,
    exp: now - 3600,
    auth_time: now - 7200,
  })
  const idTokenAsSession = await signIn(api.env, employee)
  for (const options of [
    {},
    { body: {} },
    { body: { token: '' } },
    { body: { token: 'garbage' } },
    { body: { token: expired } },
    { body: { token: idTokenAsSession } },
    { cookie: 'session=%E0%A4%A' },
    { cookie: `session=${expired}` },
  ]) {
    const response = await validate(options)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ isValid: false })
  }
  const wrongType = await validate({ body: { token: 42 } })
  expect(wrongType.status).toBe(400)
  expect(((await wrongType.json()) as { error: { fields: object } }).error.fields).toHaveProperty('token')
})

test('refresh re-issues the session cookie with a later expiry; without a session it is 401', async () => {
  const { cookie, session } = await loginAs(api, employee)
  await sleep(1_100)
  const response = await call(api.app, 'POST', '/api/auth/refresh', { cookie })
  expect(response.status).toBe(200)
  const { values, raw } = cookiesOf(response)
  const fresh = values.session ?? ''
  expect(fresh).not.toBe(session)
  expect(raw.session).toMatch(/HttpOnly/)
  expect(jwtPayload(fresh).exp as number).toBeGreaterThan(jwtPayload(session).exp as number)
  expect(jwtPayload(fresh).sub).toBe(employee.uid)
  expect(await isValid(await validate({ cookie: `session=${fresh}` }))).toBe(true)

  const unauthenticated = await call(api.app, 'POST', '/api/auth/refresh')
  expect(unauthenticated.status).toBe(401)
  expect(await unauthenticated.json()).toEqual({
    error: { code: 'unauthenticated', message: 'Du er ikke logget ind.' },
  })
})

test('refresh does not bring back a user deleted since the session was last checked', async () => {
  const doomed = await createTestUser(api.firebase, { userRole: 'user' })
  const { cookie } = await loginAs(api, doomed)
  expect(await isValid(await validate({ cookie }))).toBe(true)
  await api.firebase.auth.deleteUser(doomed.uid)
  expect((await call(api.app, 'POST', '/api/auth/refresh', { cookie })).status).toBe(401)
  await expect(api.firebase.auth.getUser(doomed.uid)).rejects.toMatchObject({ code: 'auth/user-not-found' })
})

test('logout without a valid session answers 401 with the logout message and still clears the cookies', async () => {
  const response = await call(api.app, 'POST', '/api/auth/logout', { cookie: 'session=garbage; userId=u1' })
  expect(response.status).toBe(401)
  expect(await response.json()).toEqual({
    error: { code: 'unauthenticated', message: 'An error occurred during logout.' },
  })
  expectBothCleared(response)
})

/** An app on its own firebase-admin handle (empty session cache) whose Auth is reached through `authHost`. */
function appWithAuthAt(authHost: string) {
  // firebase-admin fixes the Auth emulator host on the handle's first Auth request: callers keep
  // FIREBASE_AUTH_EMULATOR_HOST on `authHost` until then.
  process.env.FIREBASE_AUTH_EMULATOR_HOST = authHost
  const firebase = createFirebase({
    projectId: api.env.FIREBASE_PROJECT_ID,
    firestoreProjectId: 'demo-api-auth',
    useFirestoreEmulator: true,
  })
  const config = appConfigFromEnv(api.env)
  // The token keys come from the same Auth host.
  config.identityToolkit = { ...config.identityToolkit, emulatorHost: authHost }
  return { firebase, app: createApp({ firebase, config }) }
}

async function expectUnavailableLogout(app: App, cookie: string) {
  const response = await call(app, 'POST', '/api/auth/logout', { cookie })
  expect(response.status).toBe(503)
  expect(await response.json()).toEqual({ error: { code: 'unavailable', message: 'An error occurred during logout.' } })
  expectBothCleared(response)
}

test('logout when Auth cannot be reached to check the session answers 503 with the logout message and still clears both cookies', async () => {
  const { cookie } = await loginAs(api, employee)
  const authHost = api.env.FIREBASE_AUTH_EMULATOR_HOST ?? ''
  const closed = appWithAuthAt(await closedPortHost())
  try {
    // Auth is gone before the session could be checked: the check fails.
    await expectUnavailableLogout(closed.app, cookie)
  } finally {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = authHost
    await closed.firebase.close()
  }

  const proxy = await cuttableProxy(authHost)
  const cut = appWithAuthAt(proxy.host)
  try {
    expect(await isValid(await call(cut.app, 'POST', '/api/auth/validate', { cookie }))).toBe(true)
    process.env.FIREBASE_AUTH_EMULATOR_HOST = authHost
    // Auth goes away after a check this instance still holds: ending this device's session needs
    // no Auth (the ending is recorded in Firestore), so it works.
    await proxy.close()
    const response = await call(cut.app, 'POST', '/api/auth/logout', { cookie })
    expect(response.status).toBe(200)
    expectBothCleared(response)
  } finally {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = authHost
    await proxy.close()
    await cut.firebase.close()
  }
  // Ended for every instance, also where Auth can be reached.
  expect(await isValid(await validate({ cookie }))).toBe(false)
})

test('cookie-authenticated writes from another site are refused', async () => {
  const { cookie } = await loginAs(api, employee)
  for (const headers of CROSS_SITE_HEADERS) {
    const response = await call(api.app, 'POST', '/api/auth/logout', { cookie, headers })
    expect(response.status, JSON.stringify(headers)).toBe(403)
    expect(await response.json()).toEqual({ error: CROSS_SITE_ERROR })
  }
  expect(await isValid(await validate({ cookie }))).toBe(true)
  // The app's own origin behind nginx, which forwards `Host: $host` without the port.
  const sameOrigin = await call(api.app, 'POST', '/api/auth/validate', {
    cookie,
    headers: { origin: 'http://127.0.0.1:8000', host: '127.0.0.1' },
  })
  expect(await isValid(sameOrigin)).toBe(true)
  const fetchMetadata = await call(api.app, 'POST', '/api/auth/logout', {
    cookie,
    headers: { 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:8000' },
  })
  expect(fetchMetadata.status).toBe(200)
})

test('a body over 16 KiB is refused with 413', async () => {
  const response = await call(api.app, 'POST', '/api/auth/login', {
    body: { idToken: 'x'.repeat(20_000) },
    headers: from(),
  })
  expect(response.status).toBe(413)
  expect(await response.json()).toEqual({
    error: { code: 'payload_too_large', message: 'Forespørgslen er for stor.' },
  })
})

test('unknown paths and methods answer 404 in the error shape', async () => {
  for (const [method, path] of [
    ['GET', '/api/nothing'],
    ['GET', '/api/auth/login'],
    ['PUT', '/api/auth/validate'],
  ] as const) {
    const response = await call(api.app, method, path)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'Det findes ikke.' } })
  }
})
