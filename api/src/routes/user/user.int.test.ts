import { UserRecordResponseSchema } from '@bosted/domain/api'
import type { Auth } from 'firebase-admin/auth'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { createApp } from '../../app.ts'
import { appConfigFromEnv } from '../../env.ts'
import {
  BASE_URL,
  CROSS_SITE_ERROR,
  CROSS_SITE_HEADERS,
  call,
  createTestApi,
  createTestUser,
  loginAs,
  type Session,
  type TestApi,
  type TestUser,
} from '../../testing.ts'

let api: TestApi
const users: Record<'admin' | 'superuser' | 'employee' | 'otherEmployee' | 'person' | 'otherPerson', TestUser> =
  {} as never
const sessions: Record<'admin' | 'superuser' | 'employee' | 'person', Session> = {} as never

beforeAll(async () => {
  api = createTestApi('demo-api-user')
  const { firebase } = api
  users.admin = await createTestUser(firebase, { userRole: 'admin' })
  users.superuser = await createTestUser(firebase, { userRole: 'superuser', locations: ['north', 'south'] })
  users.employee = await createTestUser(firebase, { userRole: 'user', locations: ['north'] })
  users.otherEmployee = await createTestUser(firebase, { userRole: 'employee', locations: ['east'] })
  users.person = await createTestUser(firebase, { displayName: 'Borger Nord' })
  users.otherPerson = await createTestUser(firebase, { displayName: 'Borger Øst' })
  const location = (id: string, persons: string[]) =>
    firebase.db.collection('locations').doc(id).set({ id, name: id, createdAt: new Date().toISOString(), persons })
  await location('north', [users.person.uid])
  await location('south', [])
  await location('east', [users.otherPerson.uid])
  for (const role of ['admin', 'superuser', 'employee', 'person'] as const) {
    sessions[role] = await loginAs(api, users[role])
  }
})
afterAll(() => api.close())

const getUser = (id: string, session?: Session) =>
  call(api.app, 'GET', `/api/user/getUserById?id=${encodeURIComponent(id)}`, { cookie: session?.cookie })
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; fields?: Record<string, string[]> } }).error
const newUser = (overrides: Record<string, unknown> = {}) => ({
  email: `ny-${Math.random().toString(36).slice(2)}@api-test.dk`,
  password: 'hemmelig',
  displayName: 'Ny Medarbejder',
  ...overrides,
})

test('getUserById answers the user record with custom claims for a staff member reading themselves', async () => {
  const response = await getUser(users.employee.uid, sessions.employee)
  expect(response.status).toBe(200)
  const body: unknown = await response.json()
  // The contract the web parses it with.
  expect(UserRecordResponseSchema.safeParse(body).success).toBe(true)
  expect(body).toEqual({
    data: {
      uid: users.employee.uid,
      email: users.employee.email,
      displayName: 'Test Bruger',
      disabled: false,
      customClaims: { admin: false, userRole: 'user' },
    },
  })
})

test('getUserById lets staff read users and persons of their own locations', async () => {
  expect((await getUser(users.superuser.uid, sessions.employee)).status).toBe(200)
  expect((await getUser(users.employee.uid, sessions.superuser)).status).toBe(200)
  const person = await getUser(users.person.uid, sessions.employee)
  expect(person.status).toBe(200)
  expect(((await person.json()) as { data: { displayName: string } }).data.displayName).toBe('Borger Nord')
})

test('getUserById refuses staff users and persons of other locations, and unknown ids, with 403', async () => {
  for (const id of [users.otherEmployee.uid, users.otherPerson.uid, users.admin.uid, 'no-such-user', 'a/b']) {
    const response = await getUser(id, sessions.employee)
    expect(response.status).toBe(403)
    expect(await errorOf(response)).toEqual({ code: 'forbidden', message: 'Du har ikke adgang til dette.' })
  }
  // A person is no staff member: only themselves.
  expect((await getUser(users.person.uid, sessions.person)).status).toBe(200)
  expect((await getUser(users.employee.uid, sessions.person)).status).toBe(403)
})

test('getUserById lets an admin read anyone and answers 404 for an unknown id', async () => {
  const response = await getUser(users.otherEmployee.uid, sessions.admin)
  expect(response.status).toBe(200)
  expect(((await response.json()) as { data: { customClaims: object } }).data.customClaims).toEqual({
    admin: false,
    userRole: 'employee',
  })
  const unknown = await getUser('no-such-user', sessions.admin)
  expect(unknown.status).toBe(404)
  expect(await errorOf(unknown)).toEqual({ code: 'not_found', message: 'Det findes ikke.' })
})

test('getUserById needs a valid session and an id', async () => {
  const anonymous = await getUser(users.employee.uid)
  expect(anonymous.status).toBe(401)
  expect(await errorOf(anonymous)).toEqual({ code: 'unauthenticated', message: 'Du er ikke logget ind.' })
  expect((await getUser(users.employee.uid, { ...sessions.employee, cookie: 'session=forged' })).status).toBe(401)
  const missing = await call(api.app, 'GET', '/api/user/getUserById', { cookie: sessions.employee.cookie })
  expect(missing.status).toBe(400)
  expect(Object.keys((await errorOf(missing)).fields ?? {})).toEqual(['id'])
  const tooLong = await getUser('x'.repeat(129), sessions.admin)
  expect(tooLong.status).toBe(400)
})

test('a session whose user was deleted meanwhile is answered 401, not an error', async () => {
  const doomed = await createTestUser(api.firebase, { userRole: 'superuser', locations: ['north'] })
  const session = await loginAs(api, doomed)
  // Checked once, so the api holds a positive answer for a few seconds.
  expect((await call(api.app, 'POST', '/api/auth/validate', { cookie: session.cookie })).status).toBe(200)
  await api.firebase.auth.deleteUser(doomed.uid)
  const response = await getUser(doomed.uid, session)
  expect(response.status).toBe(401)
  expect((await errorOf(response)).code).toBe('unauthenticated')
})

test('create lets a superuser create an Auth user and answers its id', async () => {
  const avatarUrl = 'https://example.dk/avatar.png'
  const body = newUser({ avatarUrl })
  const response = await call(api.app, 'POST', '/api/user/create', { cookie: sessions.superuser.cookie, body })
  expect(response.status).toBe(200)
  const answer = (await response.json()) as { statusCode: number; body: { userId: string } }
  expect(answer.statusCode).toBe(200)
  const record = await api.firebase.auth.getUser(answer.body.userId)
  expect(record).toMatchObject({ email: body.email, displayName: 'Ny Medarbejder', photoURL: avatarUrl })
  const admin = await call(api.app, 'POST', '/api/user/create', { cookie: sessions.admin.cookie, body: newUser() })
  expect(admin.status).toBe(200)
})

test('create is refused without a session (401) and for employees and persons (403)', async () => {
  expect((await call(api.app, 'POST', '/api/user/create', { body: newUser() })).status).toBe(401)
  for (const session of [sessions.employee, sessions.person]) {
    const response = await call(api.app, 'POST', '/api/user/create', { cookie: session.cookie, body: newUser() })
    expect(response.status).toBe(403)
    expect((await errorOf(response)).code).toBe('forbidden')
  }
})

test('create answers 400 with the spec messages per field', async () => {
  const cases = [
    [{ email: 'ikke-en-email' }, { email: ['Ugyldig email format'] }],
    [{ email: '' }, { email: ['Email er påkrævet', 'Ugyldig email format'] }],
    [{ password: '12345' }, { password: ['Adgangskode skal være mindst 6 tegn'] }],
    [{ password: '' }, { password: ['Adgangskode er påkrævet', 'Adgangskode skal være mindst 6 tegn'] }],
    [{ password: 'x'.repeat(10 * 1024) }, { password: ['Adgangskode må højst være 4096 tegn'] }],
    [{ displayName: 'Ny \u202Eredlof' }, { displayName: ['Navnet må ikke indeholde usynlige tegn eller styretegn'] }],
    [
      { displayName: 'Ny\u0000Medarbejder' },
      { displayName: ['Navnet må ikke indeholde usynlige tegn eller styretegn'] },
    ],
    [
      { displayName: 'Ny\u200BMedarbejder' },
      { displayName: ['Navnet må ikke indeholde usynlige tegn eller styretegn'] },
    ],
    // Bounded lengths, said in Danish (issue 32).
    [{ displayName: 'N'.repeat(257) }, { displayName: ['Højst 256 tegn'] }],
    [{ email: `${'a'.repeat(250)}@b.dk` }, { email: ['Højst 254 tegn'] }],
  ] as const
  for (const [overrides, fields] of cases) {
    const response = await call(api.app, 'POST', '/api/user/create', {
      cookie: sessions.superuser.cookie,
      body: newUser(overrides),
    })
    expect(response.status).toBe(400)
    expect(await errorOf(response)).toEqual({ code: 'invalid_request', message: 'Ugyldig forespørgsel.', fields })
  }
  const noName = await call(api.app, 'POST', '/api/user/create', {
    cookie: sessions.superuser.cookie,
    body: { email: 'a@b.dk', password: 'hemmelig', avatarUrl: 'not a url' },
  })
  // zod's own checks speak Danish too: no English reaches the form.
  expect((await errorOf(noName)).fields).toEqual({
    avatarUrl: ['Ugyldigt format'],
    displayName: ['Feltet skal udfyldes'],
  })
})

test('create answers 409 when the email already exists', async () => {
  const response = await call(api.app, 'POST', '/api/user/create', {
    cookie: sessions.superuser.cookie,
    body: newUser({ email: users.employee.email }),
  })
  expect(response.status).toBe(409)
  expect(await errorOf(response)).toEqual({
    code: 'email_exists',
    message: 'Der findes allerede en bruger med denne email.',
  })
})

/** What a role change writes: the Auth claims and the user document's userRole. */
const roleOf = async (uid: string) => ({
  claims: (await api.firebase.auth.getUser(uid)).customClaims ?? {},
  userRole: (await api.firebase.db.collection('users').doc(uid).get()).get('userRole'),
})

test('an admin sets a role: claims and the user document change together and take effect at once', async () => {
  const target = await createTestUser(api.firebase, { userRole: 'user', locations: ['north'] })
  const targetSession = await loginAs(api, target)
  const before = await call(api.app, 'POST', '/api/user/create', { cookie: targetSession.cookie, body: newUser() })
  expect(before.status).toBe(403)

  const response = await call(api.app, 'PUT', `/api/user/${target.uid}/role`, {
    cookie: sessions.admin.cookie,
    body: { userRole: 'superuser', admin: false },
  })
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({
    data: { uid: target.uid, userRole: 'superuser', customClaims: { admin: false, userRole: 'superuser' } },
  })
  expect(await roleOf(target.uid)).toEqual({ claims: { admin: false, userRole: 'superuser' }, userRole: 'superuser' })

  // Roles are read fresh, so the existing session has the new rights without signing in again.
  const after = await call(api.app, 'POST', '/api/user/create', { cookie: targetSession.cookie, body: newUser() })
  expect(after.status).toBe(200)
})

test('setting a role is for admins only', async () => {
  const body = { userRole: 'admin', admin: true }
  const path = `/api/user/${users.employee.uid}/role`
  expect((await call(api.app, 'PUT', path, { body })).status).toBe(401)
  for (const session of [sessions.superuser, sessions.employee]) {
    const response = await call(api.app, 'PUT', path, { cookie: session.cookie, body })
    expect(response.status).toBe(403)
  }
  expect((await api.firebase.auth.getUser(users.employee.uid)).customClaims).toEqual({ admin: false, userRole: 'user' })
})

test('setting a role validates the body and needs an existing staff member', async () => {
  const put = (id: string, body: unknown) =>
    call(api.app, 'PUT', `/api/user/${id}/role`, { cookie: sessions.admin.cookie, body })
  const badRole = await put(users.employee.uid, { userRole: 'boss', admin: false })
  expect(badRole.status).toBe(400)
  expect(Object.keys((await errorOf(badRole)).fields ?? {})).toEqual(['userRole'])
  const inconsistent = await put(users.employee.uid, { userRole: 'superuser', admin: true })
  expect(inconsistent.status).toBe(400)
  expect(Object.keys((await errorOf(inconsistent)).fields ?? {})).toEqual(['admin'])
  expect((await put('no-such-user', { userRole: 'user', admin: false })).status).toBe(404)
  // Persons have no user document, so they have no staff role to set.
  expect((await put(users.person.uid, { userRole: 'user', admin: false })).status).toBe(404)
  expect((await api.firebase.auth.getUser(users.person.uid)).customClaims ?? {}).toEqual({})
})

test('an admin makes someone admin: claims say admin and the user document says admin, at once', async () => {
  const target = await createTestUser(api.firebase, { userRole: 'superuser', locations: ['south'] })
  const targetSession = await loginAs(api, target)
  expect((await getUser(users.otherEmployee.uid, targetSession)).status).toBe(403)

  const response = await call(api.app, 'PUT', `/api/user/${target.uid}/role`, {
    cookie: sessions.admin.cookie,
    body: { userRole: 'admin', admin: true },
  })
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({
    data: { uid: target.uid, userRole: 'admin', customClaims: { admin: true, userRole: 'admin' } },
  })
  expect(await roleOf(target.uid)).toEqual({ claims: { admin: true, userRole: 'admin' }, userRole: 'admin' })
  // The new admin reads anyone with the session they already had.
  expect((await getUser(users.otherEmployee.uid, targetSession)).status).toBe(200)
})

test('when the claims cannot be written, the user document gets its old role back', async () => {
  // A real failure of the second write: Auth refuses claims over 1000 characters, and the target's
  // existing claims leave no room for the longer role name.
  const target = await createTestUser(api.firebase, { userRole: 'user', locations: ['north'] })
  const claims = { admin: false, userRole: 'user', note: '' }
  claims.note = 'x'.repeat(1000 - JSON.stringify(claims).length)
  await api.firebase.auth.setCustomUserClaims(target.uid, claims)
  const before = await roleOf(target.uid)
  expect(before).toEqual({ claims, userRole: 'user' })

  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    const response = await call(api.app, 'PUT', `/api/user/${target.uid}/role`, {
      cookie: sessions.admin.cookie,
      body: { userRole: 'superuser', admin: false },
    })
    expect(response.status).toBe(500)
    expect(await errorOf(response)).toEqual({ code: 'internal', message: expect.any(String) })
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('/role failed'), expect.anything())
  } finally {
    logged.mockRestore()
  }
  expect(await roleOf(target.uid)).toEqual(before)
})

test('when Auth drops out before the claims are written, the call is 503 and the document is restored', async () => {
  const target = await createTestUser(api.firebase, { userRole: 'employee', locations: ['north'] })
  const before = await roleOf(target.uid)
  // The real Auth emulator and Firestore, but the claims write fails as it does when Auth is unreachable.
  const attempts: unknown[] = []
  const auth = new Proxy(api.firebase.auth, {
    get(real, property) {
      if (property === 'setCustomUserClaims') {
        return async (...args: unknown[]) => {
          attempts.push(args)
          throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'app/network-error' })
        }
      }
      const value = Reflect.get(real, property, real)
      return typeof value === 'function' ? value.bind(real) : value
    },
  }) as Auth
  const app = createApp({ firebase: { ...api.firebase, auth }, config: appConfigFromEnv(api.env) })
  const response = await call(app, 'PUT', `/api/user/${target.uid}/role`, {
    cookie: sessions.admin.cookie,
    body: { userRole: 'admin', admin: true },
  })
  expect(response.status).toBe(503)
  expect((await errorOf(response)).code).toBe('unavailable')
  expect(attempts).toHaveLength(1)
  expect(await roleOf(target.uid)).toEqual(before)
  expect(before).toEqual({ claims: { admin: false, userRole: 'employee' }, userRole: 'employee' })
})

test('create with a valid admin session from another site is refused and creates nobody', async () => {
  const body = newUser()
  for (const headers of CROSS_SITE_HEADERS) {
    const response = await call(api.app, 'POST', '/api/user/create', { cookie: sessions.admin.cookie, body, headers })
    expect(response.status, JSON.stringify(headers)).toBe(403)
    expect(await errorOf(response)).toEqual(CROSS_SITE_ERROR)
    await expect(api.firebase.auth.getUserByEmail(body.email)).rejects.toMatchObject({ code: 'auth/user-not-found' })
  }
  // The very same request from the app itself goes through: only the origin was wrong.
  const sameOrigin = await call(api.app, 'POST', '/api/user/create', {
    cookie: sessions.admin.cookie,
    body,
    headers: { 'sec-fetch-site': 'same-origin', origin: BASE_URL },
  })
  expect(sameOrigin.status).toBe(200)
  expect((await api.firebase.auth.getUserByEmail(body.email)).email).toBe(body.email)
})

test('setting a role with a valid admin session from another site is refused and changes nothing', async () => {
  const target = await createTestUser(api.firebase, { userRole: 'user', locations: ['north'] })
  const before = await roleOf(target.uid)
  const path = `/api/user/${target.uid}/role`
  const body = { userRole: 'admin', admin: true }
  for (const headers of CROSS_SITE_HEADERS) {
    const response = await call(api.app, 'PUT', path, { cookie: sessions.admin.cookie, body, headers })
    expect(response.status, JSON.stringify(headers)).toBe(403)
    expect(await errorOf(response)).toEqual(CROSS_SITE_ERROR)
    expect(await roleOf(target.uid)).toEqual(before)
  }
  const sameOrigin = await call(api.app, 'PUT', path, {
    cookie: sessions.admin.cookie,
    body,
    headers: { 'sec-fetch-site': 'same-origin', origin: BASE_URL },
  })
  expect(sameOrigin.status).toBe(200)
  expect(await roleOf(target.uid)).toEqual({ claims: { admin: true, userRole: 'admin' }, userRole: 'admin' })
})

test('create with a body over 16 KiB is refused with 413 and creates nobody', async () => {
  const body = newUser({ displayName: 'x'.repeat(20_000) })
  const response = await call(api.app, 'POST', '/api/user/create', { cookie: sessions.superuser.cookie, body })
  expect(response.status).toBe(413)
  expect(await response.json()).toEqual({
    error: { code: 'payload_too_large', message: 'Forespørgslen er for stor.' },
  })
  await expect(api.firebase.auth.getUserByEmail(body.email)).rejects.toMatchObject({ code: 'auth/user-not-found' })
})

const createAccount = async (session: Session) => {
  const response = await call(api.app, 'POST', '/api/user/create', { cookie: session.cookie, body: newUser() })
  return ((await response.json()) as { body: { userId: string } }).body.userId
}
const remove = (userId: string, session?: Session) =>
  call(api.app, 'POST', '/api/user/remove', { cookie: session?.cookie, body: { userId } })
const authExists = (uid: string) =>
  api.firebase.auth.getUser(uid).then(
    () => true,
    () => false,
  )

test('remove lets a superuser undo a failed creation: the fresh account and its unlisted person document go', async () => {
  const userId = await createAccount(sessions.superuser)
  await api.firebase.db.collection('persons').doc(userId).set({ id: userId, firstName: 'Ny', locationId: 'north' })
  await api.firebase.db.collection('persons').doc(userId).collection('answers').doc('a1').set({ text: 'Glad' })
  const response = await remove(userId, sessions.superuser)
  expect(response.status).toBe(200)
  expect(await authExists(userId)).toBe(false)
  expect((await api.firebase.db.collection('persons').doc(userId).get()).exists).toBe(false)
  expect((await api.firebase.db.collection('persons').doc(userId).collection('answers').get()).empty).toBe(true)
})

test('remove refuses accounts in use: staff, persons a location lists, and persons of other locations', async () => {
  expect((await remove(users.employee.uid, sessions.superuser)).status).toBe(403)
  expect((await remove(users.person.uid, sessions.superuser)).status).toBe(403)
  const elsewhere = await createAccount(sessions.admin)
  await api.firebase.db.collection('persons').doc(elsewhere).set({ id: elsewhere, firstName: 'Ny', locationId: 'east' })
  expect((await remove(elsewhere, sessions.superuser)).status).toBe(403)
  expect(await authExists(elsewhere)).toBe(true)
})

test('remove is refused without a session (401) and for employees (403)', async () => {
  const userId = await createAccount(sessions.superuser)
  expect((await remove(userId)).status).toBe(401)
  expect((await remove(userId, sessions.employee)).status).toBe(403)
  expect(await authExists(userId)).toBe(true)
})
