import type { AccessLogEntry, AccessLogPage } from '@bosted/domain/access-log'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fromBuffer } from 'yauzl'
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

const PROJECT = 'demo-api-access-log'
let api: TestApi
let admin: Session
let superuser: Session
let otherSuperuser: Session
let employeeSession: Session
let employee: TestUser
const PERSON = 'log-person'

beforeAll(async () => {
  api = createTestApi(PROJECT)
  const { db } = api.firebase
  admin = await loginAs(api, await createTestUser(api.firebase, { userRole: 'admin', displayName: 'Birgitte Holm' }))
  superuser = await loginAs(api, await createTestUser(api.firebase, { userRole: 'superuser', locations: ['north'] }))
  otherSuperuser = await loginAs(
    api,
    await createTestUser(api.firebase, { userRole: 'superuser', locations: ['south'] }),
  )
  employee = await createTestUser(api.firebase, { userRole: 'user', locations: ['north'] })
  await db.collection('users').doc(employee.uid).update({ firstName: 'Signe', lastName: 'Dahl' })
  employeeSession = await loginAs(api, employee)
  await db
    .collection('locations')
    .doc('north')
    .set({ id: 'north', name: 'Nord', createdAt: '2026-11-01', persons: [PERSON] })
  const person = db.collection('persons').doc(PERSON)
  await person.set({
    id: PERSON,
    firstName: 'Åse',
    lastName: 'Nørgård',
    createdAt: '2026-11-01T09:00:00.000Z',
    locationId: 'north',
    settings: { disabled: false },
  })
  await person
    .collection('notes')
    .doc('n1')
    .set({
      personId: PERSON,
      locationId: 'north',
      day: '2026-11-20',
      createdAt: '2026-11-20T09:00:00.000Z',
      createdBy: employee.uid,
      authorName: 'Signe Dahl',
      source: 'keyboard',
      text: 'Rettet tekst <b>med</b> tegn',
      revisions: [{ text: 'Første tekst', at: '2026-11-20T10:00:00.000Z', by: employee.uid, byName: 'Signe Dahl' }],
    })
  await person
    .collection('registrations')
    .doc('r1')
    .set({ personId: PERSON, locationId: 'north', day: '2026-11-20', text: 'Glad', value: 1 })
  await api.firebase.bucket().file(`persons/${PERSON}/avatar.png`).save(Buffer.from('png-bytes'), {
    contentType: 'image/png',
    resumable: false,
  })
})
afterAll(() => api.close())

const logOf = (session: Session, query = '', id = PERSON) =>
  call(api.app, 'GET', `/api/person/${encodeURIComponent(id)}/access-log${query}`, { cookie: session.cookie })

/** The employee's browser reads the person's notes straight from the emulator, with their ID token. */
async function employeeReadsNotes(): Promise<void> {
  const token = await signIn(api.env, employee)
  const response = await fetch(
    `http://${process.env.FIRESTORE_EMULATOR_HOST}/v1/projects/${PROJECT}/databases/(default)/documents/persons/${PERSON}/notes`,
    { headers: { authorization: `Bearer ${token}` } },
  )
  expect(response.status).toBe(200)
}

test("an admin sees an employee's read, with names, newest first; opening the log is its first entry", async () => {
  await employeeReadsNotes()
  const response = await logOf(admin)
  expect(response.status).toBe(200)
  const { data } = (await response.json()) as { data: AccessLogPage }
  const [opened, read] = data.entries as [AccessLogEntry, AccessLogEntry]
  expect(opened).toMatchObject({
    operation: 'viewLog',
    resource: 'accessLog',
    principal: { uid: admin.uid, name: 'Test Bruger', role: 'admin' },
  })
  expect(read).toMatchObject({
    personId: PERSON,
    operation: 'list',
    resource: 'notes',
    count: 1,
    resourceName: `persons/${PERSON}/notes`,
    principal: { uid: employee.uid, email: employee.email, name: 'Signe Dahl', role: 'employee' },
  })
  expect(read.seq).toBeLessThan(opened.seq)
  expect(data.actors.map((actor) => actor.name)).toEqual(expect.arrayContaining(['Signe Dahl', 'Test Bruger']))
})

test('filters by staff member, operation and period, and pages with a token', async () => {
  const byEmployee = (await (await logOf(admin, `?actor=${employee.uid}`)).json()) as { data: AccessLogPage }
  expect(byEmployee.data.entries.length).toBeGreaterThan(0)
  expect(byEmployee.data.entries.every((entry) => entry.principal.uid === employee.uid)).toBe(true)
  const views = (await (await logOf(admin, '?operation=viewLog')).json()) as { data: AccessLogPage }
  expect(views.data.entries.every((entry) => entry.operation === 'viewLog')).toBe(true)
  const past = (await (await logOf(admin, '?from=2020-01-01&to=2020-01-31')).json()) as { data: AccessLogPage }
  expect(past.data.entries).toEqual([])
  const first = (await (await logOf(admin, '?pageSize=1')).json()) as { data: AccessLogPage }
  expect(first.data.entries).toHaveLength(1)
  expect(first.data.nextPageToken).not.toBeNull()
  const second = (await (await logOf(admin, `?pageSize=1&pageToken=${first.data.nextPageToken}`)).json()) as {
    data: AccessLogPage
  }
  expect(second.data.entries[0]?.seq).toBeLessThan(first.data.entries[0]?.seq ?? 0)
  // Paging on does not log another opening: the next opening follows the last one directly.
  const again = (await (await logOf(admin, '?pageSize=1')).json()) as { data: AccessLogPage }
  expect(again.data.entries[0]?.seq).toBe((first.data.entries[0]?.seq ?? 0) + 1)
})

test('a bad filter is a 400 with the field named', async () => {
  for (const query of [
    '?from=2026-13-01',
    '?operation=rewrite',
    '?pageSize=5000',
    '?from=2026-11-20&to=2026-11-01',
    '?pageToken=not-a-token',
  ]) {
    const response = await logOf(admin, query)
    expect(response.status, query).toBe(400)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request')
  }
})

test("superusers open the logs of their locations' persons only; employees none; no session none", async () => {
  expect((await logOf(superuser)).status).toBe(200)
  const refused = await logOf(otherSuperuser)
  expect(refused.status).toBe(403)
  expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('Du har ikke adgang til dette.')
  expect((await logOf(employeeSession)).status).toBe(403)
  expect((await call(api.app, 'GET', `/api/person/${PERSON}/access-log`)).status).toBe(401)
  // An unknown person: 404 for admins, 403 for others (no probing of ids).
  expect((await logOf(admin, '', 'no-such-person')).status).toBe(404)
  expect((await logOf(superuser, '', 'no-such-person')).status).toBe(403)
})

test('the chain verifies, and every stored client write has its entry, for admins and superusers', async () => {
  const response = await call(api.app, 'GET', '/api/access-log/verify', { cookie: admin.cookie })
  expect(response.status).toBe(200)
  const { data } = (await response.json()) as { data: Record<string, unknown> }
  expect(data).toMatchObject({ intact: true, writesWithoutEntry: 0 })
  // Counts only: not which documents (they name persons of any location).
  expect(Object.keys(data).sort()).toEqual([
    'brokenAt',
    'entries',
    'intact',
    'pruned',
    'writesChecked',
    'writesWithoutEntry',
  ])
  expect((await call(api.app, 'GET', '/api/access-log/verify', { cookie: employeeSession.cookie })).status).toBe(403)
})

function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error)
      const files = new Map<string, Buffer>()
      zip.on('entry', (entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError)
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks))
            zip.readEntry()
          })
        })
      })
      zip.on('end', () => resolve(files))
      zip.readEntry()
    })
  })
}

test("an admin's export is one zip with everything about the person, and is itself logged", async () => {
  const response = await call(api.app, 'GET', `/api/person/${PERSON}/export`, { cookie: admin.cookie })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/zip')
  const disposition = response.headers.get('content-disposition') ?? ''
  expect(disposition).toMatch(/^attachment; filename="borger-aase-noergaard-\d{4}-\d{2}-\d{2}\.zip"/)
  expect(disposition).toContain(`filename*=UTF-8''borger-${encodeURIComponent('åse-nørgård')}-`)
  const files = await unzip(Buffer.from(await response.arrayBuffer()))
  expect([...files.keys()].sort()).toEqual(
    ['adgangslog.csv', 'adgangslog.json', 'data.json', 'filer/avatar.png', 'resume.html'].sort(),
  )
  const data = JSON.parse(files.get('data.json')?.toString('utf8') ?? '{}')
  expect(data.person).toMatchObject({ id: PERSON, firstName: 'Åse', locationId: 'north' })
  expect(data.notes).toEqual([
    expect.objectContaining({
      id: 'n1',
      text: 'Rettet tekst <b>med</b> tegn',
      revisions: [expect.objectContaining({ text: 'Første tekst' })],
    }),
  ])
  expect(data.registrations).toEqual([expect.objectContaining({ id: 'r1', text: 'Glad' })])
  expect(data.account).toBeNull()
  expect(data.files).toEqual([{ file: 'filer/avatar.png', contentType: 'image/png' }])
  expect(data.exportedBy).toEqual({ uid: admin.uid, name: 'Test Bruger' })
  expect(files.get('filer/avatar.png')?.toString()).toBe('png-bytes')
  const html = files.get('resume.html')?.toString('utf8') ?? ''
  expect(html).toContain('<title>Indsigt: Åse Nørgård</title>')
  expect(html).toContain('Rettet tekst &lt;b&gt;med&lt;/b&gt; tegn')
  expect(html).toContain('<del>Første tekst</del> (rettet af Signe Dahl, 2026-11-20T10:00:00.000Z)')
  expect(html).toContain('Test Bruger (administrator) eksporterede borgerens data')
  const log = JSON.parse(files.get('adgangslog.json')?.toString('utf8') ?? '[]') as AccessLogEntry[]
  // The export was on record before its data was read: it is the newest entry of the log it holds.
  expect(log[0]).toMatchObject({ operation: 'export', principal: { uid: admin.uid, role: 'admin' } })
  const csv = files.get('adgangslog.csv')?.toString('utf8') ?? ''
  expect(csv.startsWith('\uFEFF"Tidspunkt";"Navn"')).toBe(true)
  expect(csv.split('\r\n').filter(Boolean)).toHaveLength(log.length + 1)
  expect(csv.match(/\uFEFF/g)).toHaveLength(1)
})

test('export is for admins only, of a person who exists', async () => {
  expect((await call(api.app, 'GET', `/api/person/${PERSON}/export`, { cookie: superuser.cookie })).status).toBe(403)
  expect((await call(api.app, 'GET', '/api/person/no-such-person/export', { cookie: admin.cookie })).status).toBe(404)
})

test("an admin's move of a person through the api is in the person's log", async () => {
  await api.firebase.db
    .collection('locations')
    .doc('south')
    .set({ id: 'south', name: 'Syd', createdAt: '2026-11-01', persons: [] })
  const moved = await call(api.app, 'PUT', `/api/person/${PERSON}/location`, {
    cookie: admin.cookie,
    body: { locationId: 'south' },
  })
  expect(moved.status).toBe(200)
  const { data } = (await (await logOf(admin, '?operation=update')).json()) as { data: AccessLogPage }
  expect(data.entries[0]).toMatchObject({
    operation: 'update',
    resource: 'person',
    count: 3,
    principal: { uid: admin.uid },
  })
})
