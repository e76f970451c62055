import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readEnv } from '../../env.ts'
import {
  call,
  cookiesOf,
  createTestApi,
  createTestUser,
  loginAs,
  type Session,
  signIn,
  type TestApi,
  type TestUser,
} from '../../testing.ts'

// Passwords that belong to their owner (issue 31 point 4, docs/decisions/0023-passwords.md), under the
// pilot's policy.
let api: TestApi
/** AUTH_EMULATOR=official: firebase-tools' Auth, whose tokens are unsigned. */
const officialAuth = readEnv().ACCEPT_UNSIGNED_TOKENS === 'true'

beforeAll(() => {
  api = createTestApi('demo-api-passwords', { passwordPolicy: 'pilot', resetByMail: true })
})
afterAll(() => api.close())

const NEW_PASSWORD = 'hest-kaffe-vindue-7'

const isValid = async (cookie: Session) => {
  const response = await call(api.app, 'POST', '/api/auth/validate', { body: { token: cookie.session } })
  return ((await response.json()) as { isValid: boolean }).isValid
}

/** Signs in through Auth's REST API as a second device would; its refresh token. */
async function refreshTokenOf(user: { email: string; password: string }): Promise<string> {
  const response = await fetch(
    `http://${api.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...user, returnSecureToken: true }),
    },
  )
  return ((await response.json()) as { refreshToken: string }).refreshToken
}

async function refreshWorks(refreshToken: string): Promise<boolean> {
  const response = await fetch(
    `http://${api.env.FIREBASE_AUTH_EMULATOR_HOST}/securetoken.googleapis.com/v1/token?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    },
  )
  return response.ok
}

const signsIn = (user: { email: string; password: string }) =>
  signIn(api.env, user).then(
    () => true,
    () => false,
  )

const changePassword = (session: Session, body: Record<string, unknown>) =>
  call(api.app, 'POST', '/api/auth/change-password', { cookie: session.cookie, body })

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string; fields?: Record<string, string[]> } })
    .error
}

/** Tokens carry whole seconds: what a change must end was issued in an earlier second. */
const nextSecond = () => sleep(1_100 - (Date.now() % 1_000))

test('changing one’s own password with a wrong current password is refused in Danish and changes nothing', async () => {
  const user = await createTestUser(api.firebase, { userRole: 'user' })
  const session = await loginAs(api, user)
  const response = await changePassword(session, { currentPassword: 'forkert-kode', newPassword: NEW_PASSWORD })
  expect(response.status).toBe(400)
  expect(await errorOf(response)).toMatchObject({
    code: 'invalid_request',
    message: 'Den nuværende adgangskode er forkert',
    fields: { currentPassword: ['Den nuværende adgangskode er forkert'] },
  })
  expect(await signsIn(user)).toBe(true)
  expect(await isValid(session)).toBe(true)
})

test('a changed password ends the account’s other sessions and refresh tokens and renews this one', async () => {
  const user = await createTestUser(api.firebase, { userRole: 'user' })
  const otherDevice = await loginAs(api, user)
  const otherRefresh = await refreshTokenOf(user)
  const thisDevice = await loginAs(api, user)
  await nextSecond()

  const response = await changePassword(thisDevice, { currentPassword: user.password, newPassword: NEW_PASSWORD })
  expect(response.status).toBe(200)
  const renewed = cookiesOf(response).values.session ?? ''
  expect(renewed).not.toBe('')

  expect(await isValid(otherDevice)).toBe(false)
  // The official Auth emulator's refresh tokens are stateless and outlive any change (its README row).
  if (!officialAuth) expect(await refreshWorks(otherRefresh)).toBe(false)
  expect(await isValid(thisDevice)).toBe(false)
  expect(await isValid({ ...thisDevice, session: renewed })).toBe(true)
  expect(await signsIn(user)).toBe(false)
  expect(await signsIn({ ...user, password: NEW_PASSWORD })).toBe(true)
})

test('the pilot policy refuses short, email-like and common passwords with Danish messages', async () => {
  const user = await createTestUser(api.firebase, { userRole: 'user' })
  const session = await loginAs(api, user)
  const cases: [string, string][] = [
    ['kort-kode1', 'Adgangskoden skal være mindst 12 tegn'],
    [user.email, 'Adgangskoden må ikke være emailen'],
    ['Adgangskode2024!', 'Adgangskoden er for almindelig. Vælg en, der er sværere at gætte.'],
    [user.password, 'Den nye adgangskode skal være en anden end den nuværende'],
  ]
  for (const [newPassword, message] of cases) {
    const response = await changePassword(session, { currentPassword: user.password, newPassword })
    expect(response.status, newPassword).toBe(400)
    expect(await errorOf(response)).toMatchObject({ message, fields: { newPassword: [message] } })
  }
  expect(await signsIn(user)).toBe(true)
})

test('user creation refuses a password the pilot policy does not allow', async () => {
  const superuser = await createTestUser(api.firebase, { userRole: 'superuser', locations: ['north'] })
  const session = await loginAs(api, superuser)
  const create = (password: string) =>
    call(api.app, 'POST', '/api/user/create', {
      cookie: session.cookie,
      body: { email: `ny-${Date.now()}@api-test.dk`, password, displayName: 'Ny Kollega' },
    })
  const refused = await create('demo1234')
  expect(refused.status).toBe(400)
  expect(await errorOf(refused)).toMatchObject({ message: 'Adgangskoden skal være mindst 12 tegn' })
  expect((await create(NEW_PASSWORD)).status).toBe(200)
})

test('the web reads the policy it must show', async () => {
  const response = await call(api.app, 'GET', '/api/auth/password-policy')
  expect(await response.json()).toEqual({ policy: 'pilot', minLength: 12, resetByMail: true })
})

async function usersOf(location: string) {
  await api.firebase.db.collection('locations').doc(location).set({ id: location, name: location, persons: [] })
  const superuser = await createTestUser(api.firebase, { userRole: 'superuser', locations: [location] })
  const employee = await createTestUser(api.firebase, { userRole: 'user', locations: [location] })
  return { superuser, employee }
}

const setTemporary = (session: Session, target: TestUser, password = 'Midlertidig-Hest-42') =>
  call(api.app, 'PUT', `/api/user/${target.uid}/temporary-password`, { cookie: session.cookie, body: { password } })

test('a temporary password set by a superuser ends the employee’s sessions and must be changed before anything else', async () => {
  const { superuser, employee } = await usersOf('temp-a')
  const employeeBefore = await loginAs(api, employee)
  await nextSecond()
  const manager = await loginAs(api, superuser)
  expect((await setTemporary(manager, employee)).status).toBe(200)
  expect(await isValid(employeeBefore)).toBe(false)

  const temporary = { ...employee, password: 'Midlertidig-Hest-42' }
  const session = await loginAs(api, temporary)
  // Their own claims (the web routes them to the change) but nothing else.
  const own = await call(api.app, 'GET', `/api/user/getUserById?id=${employee.uid}`, { cookie: session.cookie })
  expect(own.status).toBe(200)
  expect(((await own.json()) as { data: { customClaims: Record<string, unknown> } }).data.customClaims).toMatchObject({
    mustChangePassword: true,
  })
  const other = await call(api.app, 'GET', `/api/user/getUserById?id=${superuser.uid}`, { cookie: session.cookie })
  expect(other.status).toBe(403)
  expect(await errorOf(other)).toEqual({
    code: 'password_change_required',
    message: 'Du skal skifte din adgangskode, før du kan fortsætte.',
  })

  const changed = await changePassword(session, { currentPassword: temporary.password, newPassword: NEW_PASSWORD })
  expect(changed.status).toBe(200)
  const renewed = { ...session, cookie: `session=${cookiesOf(changed).values.session}; userId=${employee.uid}` }
  const after = await call(api.app, 'GET', `/api/user/getUserById?id=${superuser.uid}`, { cookie: renewed.cookie })
  expect(after.status).toBe(200)
  expect((await api.firebase.auth.getUser(employee.uid)).customClaims?.mustChangePassword).toBeUndefined()
})

test('only those who manage someone may set their temporary password', async () => {
  const { superuser, employee } = await usersOf('temp-b')
  const { superuser: otherSuperuser, employee: otherEmployee } = await usersOf('temp-c')
  const admin = await createTestUser(api.firebase, { userRole: 'admin' })
  const manager = await loginAs(api, superuser)
  for (const target of [otherEmployee, otherSuperuser, admin, superuser]) {
    expect((await setTemporary(manager, target)).status, target.email).toBe(403)
  }
  expect((await setTemporary(await loginAs(api, employee), otherEmployee)).status).toBe(403)
  const weak = await setTemporary(manager, employee, 'kort')
  expect(await errorOf(weak)).toMatchObject({ message: 'Adgangskoden skal være mindst 12 tegn' })
  expect((await setTemporary(await loginAs(api, admin), otherSuperuser)).status).toBe(200)
  expect(await signsIn(employee)).toBe(true)
  expect(await signsIn(otherEmployee)).toBe(true)
})

/** The newest reset code Auth issued for `email` (no relay here: the control plane lists them). */
async function lastResetCode(email: string): Promise<string> {
  const response = await fetch(
    `http://${api.env.FIREBASE_AUTH_EMULATOR_HOST}/emulator/v1/projects/${api.env.FIREBASE_PROJECT_ID}/oobCodes`,
  )
  const { oobCodes } = (await response.json()) as { oobCodes: { email: string; oobCode: string }[] }
  const mine = oobCodes.filter((code) => code.email === email)
  return mine[mine.length - 1]?.oobCode ?? ''
}

test('a forgotten password is reset once through the link’s code, under the policy, ending every session', async () => {
  const user = await createTestUser(api.firebase, { userRole: 'user' })
  const before = await loginAs(api, user)
  await nextSecond()
  const asked = await call(api.app, 'POST', '/api/auth/forgot-password', { body: { email: user.email } })
  expect(await asked.json()).toEqual({ sent: true })
  const unknown = await call(api.app, 'POST', '/api/auth/forgot-password', { body: { email: 'ingen@api-test.dk' } })
  expect(await unknown.json()).toEqual({ sent: true })
  const oobCode = await lastResetCode(user.email)
  expect(oobCode).not.toBe('')

  const reset = (newPassword: string) =>
    call(api.app, 'POST', '/api/auth/reset-password', { body: { oobCode, newPassword } })
  const weak = await reset('kort')
  expect(await errorOf(weak)).toMatchObject({ message: 'Adgangskoden skal være mindst 12 tegn' })
  expect((await reset(NEW_PASSWORD)).status).toBe(200)
  const again = await reset('en-helt-tredje-kode-9')
  expect(again.status).toBe(400)
  expect(await errorOf(again)).toMatchObject({
    message: 'Linket er ugyldigt, allerede brugt eller udløbet. Bed om et nyt.',
  })
  expect(await isValid(before)).toBe(false)
  expect(await signsIn({ ...user, password: NEW_PASSWORD })).toBe(true)
})

test('without a mail relay there is no reset by mail', async () => {
  const plain = createTestApi('demo-api-passwords', { passwordPolicy: 'pilot', resetByMail: false })
  try {
    const response = await call(plain.app, 'POST', '/api/auth/forgot-password', { body: { email: 'a@api-test.dk' } })
    expect(response.status).toBe(404)
  } finally {
    await plain.close()
  }
})
