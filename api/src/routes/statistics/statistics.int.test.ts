import { da } from '@bosted/domain'
import { type Statistics, StatisticsSchema } from '@bosted/domain/statistics'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { createApp } from '../../app.ts'
import { appConfigFromEnv } from '../../env.ts'
import { toEntry } from '../../lib/access-entries.ts'
import type { Firebase } from '../../lib/firebase.ts'
import { restPeriodQuery } from '../../lib/firestore-query.ts'
import {
  call,
  closedPortHost,
  createTestApi,
  createTestUser,
  loginAs,
  type Session,
  signIn,
  type TestApi,
  type TestUser,
} from '../../testing.ts'

const PROJECT = 'demo-api-statistics'
let api: TestApi
let employee: Session
let admin: Session
let elsewhere: Session
let noStaff: Session
let disabledStaff: Session
/** Each session's account, to ask the emulator's rules the same question with its ID token. */
const accounts = new Map<Session, TestUser>()
const login = async (user: TestUser) => {
  const session = await loginAs(api, user)
  accounts.set(session, user)
  return session
}

// Across the change to winter time (25 October 2026); the period before is 21–23 October.
const PERIOD = 'from=2026-10-24&to=2026-10-26'
const record = (personId: string, day: string, extra: Record<string, unknown>) => ({
  personId,
  locationId: 'east',
  day,
  createdAt: `${day}T09:00:00.000Z`,
  createdBy: 'someone',
  ...extra,
})
const registration = (personId: string, day: string, value: number, answerId = 'good') =>
  record(personId, day, { answerId, text: answerId === 'good' ? 'Godt' : 'Skidt', value, entity: 'location' })
const note = (personId: string, day: string) =>
  record(personId, day, { text: 'Et langt notat '.repeat(50), source: 'keyboard', authorName: 'Signe Dahl' })

beforeAll(async () => {
  api = createTestApi(PROJECT)
  const { db } = api.firebase
  employee = await login(await createTestUser(api.firebase, { userRole: 'user', locations: ['east'] }))
  admin = await login(await createTestUser(api.firebase, { userRole: 'admin' }))
  elsewhere = await login(await createTestUser(api.firebase, { userRole: 'superuser', locations: ['west'] }))
  // An account without a staff document (a person's own sign-in): never staff.
  noStaff = await login(await createTestUser(api.firebase))
  const disabled = await createTestUser(api.firebase, { userRole: 'user', locations: ['east'] })
  disabledStaff = await loginAs(api, disabled)
  await db
    .collection('users')
    .doc(disabled.uid)
    .update({ settings: { disabled: true } })
  const writes: [string, string, Record<string, unknown>][] = [
    ['anna', 'registrations/r1', registration('anna', '2026-10-24', 3)],
    ['anna', 'registrations/r2', registration('anna', '2026-10-25', 1, 'bad')],
    ['anna', 'registrations/r3', { ...registration('anna', '2026-10-25', 3), comment: 'Gik en tur' }],
    ['anna', 'registrations/r0', registration('anna', '2026-10-22', 1, 'bad')],
    ['bo', 'registrations/r4', registration('bo', '2026-10-26', 4)],
    // Another location's and a day outside the periods: not read.
    ['cy', 'registrations/r5', { ...registration('cy', '2026-10-25', 2), locationId: 'west' }],
    ['bo', 'registrations/r6', registration('bo', '2026-10-27', 2)],
    // As an older version left it: no answerId, no entity (left out and counted).
    ['bo', 'registrations/r7', { ...registration('bo', '2026-10-25', 2), answerId: null, entity: null }],
    ['anna', 'notes/n1', note('anna', '2026-10-24')],
    ['bo', 'notes/n2', note('bo', '2026-10-26')],
    ['bo', 'notes/n0', note('bo', '2026-10-21')],
  ]
  for (const [person, path, data] of writes) await db.doc(`persons/${person}/${path}`).set(data)
})
afterAll(() => api.close())

const statistics = (session: Session | undefined, query = `locationId=east&${PERIOD}`) =>
  call(api.app, 'GET', `/api/statistics?${query}`, session ? { cookie: session.cookie } : {})

/** The entries of a person's log written by one reader. */
async function entriesBy(personId: string, uid: string) {
  const page = await api.firebase.accessLog.list(api.firebase.firestoreProjectId, personId, {
    actor: uid,
    pageSize: 100,
  })
  return page.records.map((r) => toEntry(r, personId))
}

test("staff of the location get the compact figures' data: the period, the one before, no free text", async () => {
  const response = await statistics(employee)
  expect(response.status).toBe(200)
  const body = (await response.json()) as { data: Statistics }
  const data = StatisticsSchema.parse(body.data)
  expect(data.persons).toEqual(['anna', 'bo'])
  expect(data.answers).toEqual([
    { answerId: 'bad', text: 'Skidt', entity: 'location' },
    { answerId: 'good', text: 'Godt', entity: 'location' },
  ])
  // Days count from the previous period's first day (21 October): 24 October is 3.
  expect([...data.registrations].sort()).toEqual(
    [
      [0, 1, 0, 1],
      [0, 3, 1, 3],
      [0, 4, 0, 1],
      [0, 4, 1, 3],
      [1, 5, 1, 4],
    ].sort(),
  )
  expect([...data.notes].sort()).toEqual([
    [0, 0],
    [1, 2],
  ])
  expect(data.previousNotes).toBe(1)
  expect(data.skipped).toEqual({ registrations: 1, notes: 0 })
  expect(JSON.stringify(body)).not.toMatch(/Gik en tur|Et langt notat/)
})

test('every person whose records were read has an entry naming the reader, per kind of data', async () => {
  await statistics(employee)
  const anna = await entriesBy('anna', employee.uid)
  const bo = await entriesBy('bo', employee.uid)
  const shape = (entries: typeof anna) =>
    entries
      .slice(0, entries.length / 2) // the newest request's entries (the test above made the same request)
      .map(({ operation, resource, count, resourceName }) => ({ operation, resource, count, resourceName }))
      .sort((a, b) => a.resource.localeCompare(b.resource) || a.count - b.count)
  expect(anna).toHaveLength(4)
  expect(shape(anna)).toEqual([
    { operation: 'list', resource: 'notes', count: 1, resourceName: '{path=**}/notes' },
    { operation: 'list', resource: 'registrations', count: 4, resourceName: '{path=**}/registrations' },
  ])
  // Bo: two registrations (one left out as unreadable was still read), this period's entry, the one before.
  expect(bo).toHaveLength(6)
  expect(shape(bo)).toEqual([
    { operation: 'list', resource: 'notes', count: 1, resourceName: '{path=**}/notes' },
    { operation: 'list', resource: 'notes', count: 1, resourceName: '{path=**}/notes' },
    { operation: 'list', resource: 'registrations', count: 2, resourceName: '{path=**}/registrations' },
  ])
  expect(anna[0]?.principal).toMatchObject({ uid: employee.uid, role: 'employee' })
  // Nothing of another location was read.
  expect(await entriesBy('cy', employee.uid)).toEqual([])
})

test('admins get any location; others get 403 and nothing, and nothing is logged for them', async () => {
  expect((await statistics(admin)).status).toBe(200)
  expect((await entriesBy('anna', admin.uid)).map((e) => e.principal.role)).toEqual(['admin', 'admin'])
  for (const session of [elsewhere, noStaff]) {
    const refused = await statistics(session)
    expect(refused.status).toBe(403)
    const body = (await refused.json()) as Record<string, unknown>
    expect(body).toEqual({ error: { code: 'forbidden', message: 'Du har ikke adgang til dette.' } })
    expect(await entriesBy('anna', session.uid)).toEqual([])
    expect(await entriesBy('bo', session.uid)).toEqual([])
  }
  // A turned-off staff account has no session at all; no session is 401.
  for (const session of [disabledStaff, undefined]) expect((await statistics(session)).status).toBe(401)
  expect(await entriesBy('anna', disabledStaff.uid)).toEqual([])
})

test('a bad period or location is a 400 with the field named', async () => {
  for (const query of [
    `${PERIOD}`,
    'locationId=east&from=2026-10-26&to=2026-10-24',
    'locationId=east&from=2026-02-30&to=2026-03-01',
    'locationId=east&from=2000-01-01&to=2026-01-01',
  ]) {
    const response = await statistics(employee, query)
    expect(response.status, query).toBe(400)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request')
  }
})

/** The browser's own query of the location's registrations, asked of emulator-lite's rules with an ID token. */
async function rulesAllowQuery(user: TestUser): Promise<number> {
  const token = await signIn(api.env, user)
  const field = (fieldPath: string, op: string, value: string) => ({
    fieldFilter: { field: { fieldPath }, op, value: { stringValue: value } },
  })
  const response = await fetch(
    `http://${process.env.FIRESTORE_EMULATOR_HOST}/v1/projects/${PROJECT}/databases/(default)/documents:runQuery`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        structuredQuery: {
          from: [{ collectionId: 'registrations', allDescendants: true }],
          where: {
            compositeFilter: {
              op: 'AND',
              filters: [
                field('locationId', 'EQUAL', 'east'),
                field('day', 'GREATER_THAN_OR_EQUAL', '2026-10-21'),
                field('day', 'LESS_THAN_OR_EQUAL', '2026-10-26'),
              ],
            },
          },
        },
      }),
    },
  )
  await response.body?.cancel()
  return response.status
}

test("the api allows exactly whom the rules allow to list the location's registrations", async () => {
  const answers: [number, number][] = []
  for (const session of [employee, admin, elsewhere, noStaff]) {
    const user = accounts.get(session) as TestUser
    answers.push([(await statistics(session)).status, await rulesAllowQuery(user)])
  }
  expect(answers).toEqual([
    [200, 200],
    [200, 200],
    [403, 403],
    [403, 403],
  ])
})

test('when Firestore cannot be reached for the figures the answer is 503 "unavailable" in Danish, nothing logged', async () => {
  // The same app on the same emulator, whose period queries go to a port nobody listens on.
  const origin = `http://${await closedPortHost()}`
  const firebase: Firebase = {
    ...api.firebase,
    periodQuery: restPeriodQuery({ origin, projectId: PROJECT, headers: async () => ({}) }),
  }
  const app = createApp({ firebase, config: appConfigFromEnv(api.env) })
  const adminUid = (accounts.get(admin) as TestUser).uid
  const logged = async () => (await entriesBy('anna', adminUid)).length + (await entriesBy('bo', adminUid)).length
  const before = await logged()
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  try {
    const response = await call(app, 'GET', `/api/statistics?locationId=east&${PERIOD}`, { cookie: admin.cookie })
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ error: { code: 'unavailable', message: da.api.unavailable } })
    // For operators: what failed, in one line that names the query's collection and no person.
    expect(warn.mock.calls.map((args) => String(args[0])).join('\n')).toMatch(
      /GET \/api\/statistics: backend unavailable: FirestoreQueryUnavailableError 14 Firestore could not be asked a registrations query/,
    )
  } finally {
    warn.mockRestore()
  }
  expect(await logged()).toBe(before)
})
