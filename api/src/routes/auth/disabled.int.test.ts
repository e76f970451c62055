import { afterAll, beforeAll, expect, test } from 'vitest'
import { call, createTestApi, createTestUser, loginAs, signIn, type TestApi, type TestUser } from '../../testing.ts'

let api: TestApi
let person: TestUser
let employee: TestUser

beforeAll(async () => {
  // No cached session checks: a change shows at the very next check.
  api = createTestApi('demo-api-disabled', { sessionCheckCacheMs: 0 })
  person = await createTestUser(api.firebase, { displayName: 'Borger' })
  employee = await createTestUser(api.firebase, { userRole: 'employee', locations: ['north'] })
  await api.firebase.db
    .collection('persons')
    .doc(person.uid)
    .set({ id: person.uid, locationId: 'north', settings: { disabled: false } })
})
afterAll(() => api.close())

const isValid = async (cookie: string) =>
  ((await (await call(api.app, 'POST', '/api/auth/validate', { cookie })).json()) as { isValid: boolean }).isValid

const login = async (user: TestUser) =>
  call(api.app, 'POST', '/api/auth/login', { body: { idToken: await signIn(api.env, user) } })

test('a person turned off in their document cannot sign in, with the Danish message, and an open session ends', async () => {
  const { cookie } = await loginAs(api, person)
  expect(await isValid(cookie)).toBe(true)
  await api.firebase.db.collection('persons').doc(person.uid).update({ 'settings.disabled': true })

  expect(await isValid(cookie)).toBe(false)
  const refused = await login(person)
  expect(refused.status).toBe(403)
  expect(await refused.json()).toEqual({
    error: { code: 'forbidden', message: 'Din bruger er deaktiveret. Kontakt din administrator.' },
  })
  expect(refused.headers.get('set-cookie')).toBeNull()

  await api.firebase.db.collection('persons').doc(person.uid).update({ 'settings.disabled': false })
  expect((await login(person)).status).toBe(200)
})

test('so is a staff member turned off in their users document', async () => {
  await api.firebase.db
    .collection('users')
    .doc(employee.uid)
    .update({ settings: { disabled: true } })
  expect((await login(employee)).status).toBe(403)
  await api.firebase.db
    .collection('users')
    .doc(employee.uid)
    .update({ settings: { disabled: false } })
  expect((await login(employee)).status).toBe(200)
})
