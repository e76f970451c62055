import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { AccessLogUnavailableError } from '../../lib/access-log.ts'
import {
  call,
  createTestApi,
  createTestUser,
  loginAs,
  type Session,
  signIn,
  type TestApi,
  type TestUser,
} from '../../testing.ts'

let api: TestApi
let admin: Session
let superuser: Session
let person: TestUser

beforeAll(async () => {
  api = createTestApi('demo-api-person')
  const { db } = api.firebase
  admin = await loginAs(api, await createTestUser(api.firebase, { userRole: 'admin' }))
  superuser = await loginAs(api, await createTestUser(api.firebase, { userRole: 'superuser', locations: ['north'] }))
  person = await createTestUser(api.firebase, { displayName: 'Borger Nord' })
  const location = (id: string, persons: string[]) =>
    db.collection('locations').doc(id).set({ id, name: id, createdAt: new Date().toISOString(), persons })
  await location('north', [person.uid, 'someone-else'])
  await location('south', [])
  await db
    .collection('persons')
    .doc(person.uid)
    .set({ id: person.uid, firstName: 'Borger', lastName: 'Nord', locationId: 'north', settings: { disabled: false } })
  const records = db.collection('persons').doc(person.uid)
  for (let index = 0; index < 3; index++) {
    await records
      .collection('registrations')
      .doc(`r${index}`)
      .set({ day: '2026-11-20', text: 'Godt', locationId: 'north' })
    await records.collection('notes').doc(`n${index}`).set({ day: '2026-11-20', text: 'Tekst', locationId: 'north' })
  }
})
afterAll(() => api.close())

const move = (id: string, body: unknown, session: Session = admin) =>
  call(api.app, 'PUT', `/api/person/${encodeURIComponent(id)}/location`, { cookie: session.cookie, body })
const setDisabled = (id: string, body: unknown, session: Session = admin) =>
  call(api.app, 'PUT', `/api/person/${encodeURIComponent(id)}/disabled`, { cookie: session.cookie, body })

test('an admin moves a person: both locations, the person and every registration and note follow', async () => {
  const response = await move(person.uid, { locationId: 'south' })
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ data: { personId: person.uid, from: 'north', to: 'south', records: 6 } })
  const { db } = api.firebase
  expect((await db.collection('locations').doc('north').get()).get('persons')).toEqual(['someone-else'])
  expect((await db.collection('locations').doc('south').get()).get('persons')).toEqual([person.uid])
  expect((await db.collection('persons').doc(person.uid).get()).get('locationId')).toBe('south')
  for (const collection of ['registrations', 'notes']) {
    const records = await db.collection('persons').doc(person.uid).collection(collection).get()
    expect(records.docs.map((record) => record.get('locationId'))).toEqual(['south', 'south', 'south'])
    expect(records.docs.every((record) => record.get('day') === '2026-11-20')).toBe(true)
  }
  // Moving again to where the person is changes nothing.
  expect(await (await move(person.uid, { locationId: 'south' })).json()).toMatchObject({ data: { records: 0 } })
})

test('moving is for admins only, to a location that exists, with a clear error for a bad request', async () => {
  expect((await move(person.uid, { locationId: 'north' }, superuser)).status).toBe(403)
  expect((await move('no-such-person', { locationId: 'north' })).status).toBe(404)
  expect((await move(person.uid, { locationId: 'no-such-location' })).status).toBe(404)
  const bad = await move(person.uid, { locationId: '' })
  expect(bad.status).toBe(400)
  expect(((await bad.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toHaveProperty(
    'locationId',
  )
  expect(
    (await call(api.app, 'PUT', `/api/person/${person.uid}/location`, { body: { locationId: 'north' } })).status,
  ).toBe(401)
})

test("an admin turns a person's sign-in off and on: the account and settings.disabled together", async () => {
  const { auth, db } = api.firebase
  expect((await setDisabled(person.uid, { disabled: true })).status).toBe(200)
  expect((await auth.getUser(person.uid)).disabled).toBe(true)
  expect((await db.collection('persons').doc(person.uid).get()).get('settings.disabled')).toBe(true)
  await expect(signIn(api.env, person)).rejects.toThrow()

  expect((await setDisabled(person.uid, { disabled: false })).status).toBe(200)
  expect((await auth.getUser(person.uid)).disabled).toBe(false)
  expect((await db.collection('persons').doc(person.uid).get()).get('settings.disabled')).toBe(false)
  expect(await signIn(api.env, person)).toEqual(expect.any(String))
})

test('turning sign-in off is for admins only, for a person that exists, with a boolean', async () => {
  expect((await setDisabled(person.uid, { disabled: true }, superuser)).status).toBe(403)
  expect((await setDisabled('no-such-person', { disabled: true })).status).toBe(404)
  expect((await setDisabled(person.uid, { disabled: 'yes' })).status).toBe(400)
  expect((await api.firebase.auth.getUser(person.uid)).disabled).toBe(false)
})

test("when the access log cannot take the api's entry, the api changes nothing (ADR 0017: the entry comes first)", async () => {
  const { auth, db } = api.firebase
  const before = (await db.collection('persons').doc(person.uid).get()).get('locationId') as string
  const other = before === 'north' ? 'south' : 'north'
  const append = vi
    .spyOn(api.firebase.accessLog, 'append')
    .mockRejectedValue(new AccessLogUnavailableError('the access log answered 503'))
  try {
    expect((await move(person.uid, { locationId: other })).status).toBeGreaterThanOrEqual(500)
    expect((await setDisabled(person.uid, { disabled: true })).status).toBeGreaterThanOrEqual(500)
  } finally {
    append.mockRestore()
  }
  const stored = await db.collection('persons').doc(person.uid).get()
  expect(stored.get('locationId')).toBe(before)
  expect(stored.get('settings.disabled')).toBe(false)
  expect((await auth.getUser(person.uid)).disabled).toBe(false)
  const notes = await db.collection('persons').doc(person.uid).collection('notes').get()
  expect(notes.docs.map((note) => note.get('locationId'))).toEqual([before, before, before])
})
