import type { AuditLogRecord } from '@bosted/domain/access-log'
import { getAuth } from 'firebase/auth'
import {
  collection,
  collectionGroup,
  doc,
  getCount,
  getDoc,
  getDocs,
  query,
  setDoc,
  where,
} from 'firebase/firestore/lite'
import { type FirebaseStorage, getBytes, getDownloadURL, ref } from 'firebase/storage'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createFixture, type Fixture, L1, PNG, registration } from './fixture.ts'
import { type RulesTarget, startRulesTarget } from './rules-target.ts'

// Issue 22: emulator-lite records every client request on a person's data where it serves it, through
// the official web SDKs with real Auth-emulator tokens and the repo's rules.

let target: RulesTarget
let fixture: Fixture

beforeAll(async () => {
  target = await startRulesTarget()
  fixture = await createFixture(target)
})

afterAll(async () => {
  await fixture?.close()
  await target?.close()
})

const OWNER = { authorization: 'Bearer owner' }

async function logOf(personId: string): Promise<AuditLogRecord[]> {
  const response = await fetch(
    `http://${target.firestoreAdminHost}/emulator/v1/projects/${target.projectId}/accessLog?personId=${personId}&pageSize=1000`,
    { headers: OWNER },
  )
  expect(response.status).toBe(200)
  return ((await response.json()) as { entries: AuditLogRecord[] }).entries
}

async function totalEntries(): Promise<number> {
  const response = await fetch(`http://${target.firestoreAdminHost}/emulator/v1/accessLog:verify`, { headers: OWNER })
  const body = (await response.json()) as { intact: boolean; entries: number }
  expect(body.intact).toBe(true)
  return body.entries
}

/** The entries a step adds to a person's log (newest first). */
async function added(personId: string, step: () => Promise<unknown>): Promise<AuditLogRecord[]> {
  const before = (await logOf(personId))[0]?.seq ?? 0
  await step()
  return (await logOf(personId)).filter((entry) => entry.seq > before)
}

test("an employee's get of a person is logged with who, what, where from and how many", async () => {
  const entries = await added('pa', () => getDoc(doc(fixture.clients.employee.db, 'persons/pa')))
  expect(entries).toHaveLength(1)
  expect(entries[0]).toMatchObject({
    protoPayload: {
      serviceName: 'firestore.googleapis.com',
      methodName: 'google.firestore.v1.Firestore.BatchGetDocuments',
      resourceName: `projects/${target.projectId}/databases/(default)/documents/persons/pa`,
      authenticationInfo: { principalEmail: 'emp@rules.test', principalSubject: 'emp' },
      requestMetadata: { callerIp: '127.0.0.1' },
    },
    labels: { personId: 'pa', operation: 'get', resource: 'person', role: 'employee', count: '1' },
  })
  expect(Date.now() - Date.parse(entries[0]?.timestamp ?? '')).toBeLessThan(60_000)
})

// persons/pa has 7 notes in the fixture (n-emp, n-emp2, n-sup, n-del, and n-emp3, n-49, n-50 of the limits' cases).
test("an employee's list of a person's notes is one entry with the number of notes returned", async () => {
  const entries = await added('pa', () => getDocs(collection(fixture.clients.employee.db, 'persons/pa/notes')))
  expect(entries).toHaveLength(1)
  expect(entries[0]?.labels).toMatchObject({ operation: 'list', resource: 'notes', count: '7', role: 'employee' })
  expect(entries[0]?.protoPayload.resourceName).toBe(
    `projects/${target.projectId}/databases/(default)/documents/persons/pa/notes`,
  )
})

test("a location's collection-group query is logged in each person's log it returned data of", async () => {
  const pcBefore = (await logOf('pc'))[0]?.seq ?? 0
  const entries = await added('pa', () =>
    getDocs(query(collectionGroup(fixture.clients.employee.db, 'registrations'), where('locationId', '==', L1))),
  )
  expect(entries).toHaveLength(1)
  expect(entries[0]?.labels).toMatchObject({ operation: 'list', resource: 'registrations', count: '4' })
  expect(entries[0]?.protoPayload.resourceName).toBe(
    `projects/${target.projectId}/databases/(default)/documents/{path=**}/registrations`,
  )
  // pc has no registrations: nothing of pc's was returned, so nothing is in pc's log.
  expect((await logOf('pc')).filter((entry) => entry.seq > pcBefore)).toEqual([])
})

test('an aggregation (count) of notes is a read of those notes', async () => {
  const entries = await added('pa', () => getCount(collection(fixture.clients.employee.db, 'persons/pa/notes')))
  expect(entries[0]?.labels).toMatchObject({ operation: 'list', resource: 'notes', count: '7' })
})

test("an employee's write is logged as a create, then an update", async () => {
  const path = 'persons/pa/registrations/r-logged'
  const created = await added('pa', () => setDoc(doc(fixture.clients.employee.db, path), registration('pa', L1, 'emp')))
  expect(created).toHaveLength(1)
  expect(created[0]?.labels).toMatchObject({ operation: 'create', resource: 'registrations', count: '1' })
  expect(created[0]?.protoPayload).toMatchObject({
    methodName: 'google.firestore.v1.Firestore.Commit',
    resourceName: `projects/${target.projectId}/databases/(default)/documents/${path}`,
  })
  const updated = await added('pa', () =>
    setDoc(doc(fixture.clients.employee.db, path), {
      ...registration('pa', L1, 'emp'),
      updatedBy: 'emp',
      updatedAt: '2026-11-20T10:00:00.000Z',
    }),
  )
  expect(updated[0]?.labels).toMatchObject({ operation: 'update', resource: 'registrations' })
})

test('a denied request leaves no entry (nothing was served)', async () => {
  const entries = await added('pb', () =>
    getDoc(doc(fixture.clients.employee.db, 'persons/pb')).catch((error: { code?: string }) => error.code),
  )
  expect(entries).toEqual([])
})

test('a person reading their own data is logged as themselves', async () => {
  const entries = await added('pa', () => getDocs(collection(fixture.clients.personA.db, 'persons/pa/registrations')))
  expect(entries).toHaveLength(1)
  expect(entries[0]).toMatchObject({
    protoPayload: { authenticationInfo: { principalEmail: 'pa@rules.test', principalSubject: 'pa' } },
    labels: { personId: 'pa', role: 'person', operation: 'list', resource: 'registrations' },
  })
})

test("reading a person's avatar is logged; staff, locations and their answer options are not person data", async () => {
  const avatar = await added('pa', () => getBytes(ref(fixture.clients.employee.storage, 'persons/pa/avatar.png')))
  expect(avatar).toHaveLength(1)
  expect(avatar[0]).toMatchObject({
    protoPayload: {
      serviceName: 'firebasestorage.googleapis.com',
      resourceName: `projects/_/buckets/${target.projectId}.appspot.com/objects/persons/pa/avatar.png`,
    },
    labels: { operation: 'get', resource: 'avatar', role: 'employee' },
  })
  const before = await totalEntries()
  const employee = fixture.clients.employee
  await getDoc(doc(employee.db, 'users/emp'))
  await getDoc(doc(employee.db, 'locations/loc-1'))
  await getDocs(collection(employee.db, 'locations/loc-1/answers'))
  await getDocs(query(collection(employee.db, 'users'), where('locations', 'array-contains', L1)))
  await getBytes(ref(employee.storage, 'users/emp/avatar.png'))
  expect(await totalEntries()).toBe(before)
})

/** `Authorization: Firebase <ID token>` of the persona whose client this storage belongs to. */
async function identityOf(storage: FirebaseStorage): Promise<Record<string, string>> {
  const user = getAuth(storage.app).currentUser
  if (user === null) throw new Error('not signed in')
  return { authorization: `Firebase ${await user.getIdToken()}` }
}

test("a person's picture is not opened by its download URL alone: the reader's identity must pass the rules, and is logged", async () => {
  const { employee, superuser } = fixture.clients
  const url = await getDownloadURL(ref(employee.storage, 'persons/pa/avatar.png'))
  expect(new URL(url).searchParams.get('token')).toBeTruthy()

  const anonymous = await added('pa', async () => {
    const response = await fetch(url)
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } })
  })
  expect(anonymous).toEqual([])

  const named = await added('pa', async () => {
    const response = await fetch(url, { headers: await identityOf(employee.storage) })
    expect(response.status).toBe(200)
    expect(Buffer.from(await response.arrayBuffer())).toHaveLength(PNG.length)
  })
  expect(named).toHaveLength(1)
  expect(named[0]).toMatchObject({
    protoPayload: {
      serviceName: 'firebasestorage.googleapis.com',
      authenticationInfo: { principalEmail: 'emp@rules.test', principalSubject: 'emp' },
      resourceName: `projects/_/buckets/${target.projectId}.appspot.com/objects/persons/pa/avatar.png`,
    },
    labels: { personId: 'pa', operation: 'get', resource: 'avatar', role: 'employee' },
  })

  // pb lives at the other location (the superuser works at both and hands over the URL): emp's token
  // passes no rule there, and the download token does not make up for it.
  const otherUrl = await getDownloadURL(ref(superuser.storage, 'persons/pb/avatar.png'))
  const otherLocation = await added('pb', async () => {
    const response = await fetch(otherUrl, { headers: await identityOf(employee.storage) })
    expect(response.status).toBe(403)
  })
  expect(otherLocation).toEqual([])
  expect((await fetch(otherUrl, { headers: await identityOf(superuser.storage) })).status).toBe(200)
  // A wrong token is no token at all, with or without an identity that may read.
  const forged = new URL(url)
  forged.searchParams.set('token', 'not-the-token')
  expect((await fetch(forged)).status).toBe(403)
  expect((await fetch(forged, { headers: await identityOf(employee.storage) })).status).toBe(200)
})

test('outside persons/ a download URL still opens its object by itself, as in production', async () => {
  for (const name of ['users/emp/avatar.png', `locations/${L1}/logo.png`]) {
    const url = await getDownloadURL(ref(fixture.clients.employee.storage, name))
    const response = await fetch(url)
    expect(response.status, name).toBe(200)
    expect(Buffer.from(await response.arrayBuffer())).toHaveLength(PNG.length)
  }
})

test('server SDKs are not logged by the emulator (the api records its own privileged reads)', async () => {
  const entries = await added('pa', () => fixture.admin.collection('persons/pa/notes').get())
  expect(entries).toEqual([])
})

test('clients cannot read, append to or verify the log; the owner appends validated entries only', async () => {
  const path = `/emulator/v1/projects/${target.projectId}/accessLog`
  const base = `http://${target.firestoreHost}${path}`
  // The owner's own listener (the api's); the browser-facing one refuses the owner credential itself.
  const adminBase = `http://${target.firestoreAdminHost}${path}`
  expect((await fetch(`${base}?personId=pa`)).status).toBe(403)
  const token = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG0iLCJhZG1pbiI6dHJ1ZX0.'
  expect((await fetch(`${base}?personId=pa`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(403)
  if (target.firestoreAdminHost !== target.firestoreHost)
    expect((await fetch(`${base}?personId=pa`, { headers: OWNER })).status).toBe(403)
  const append = (body: unknown, headers: Record<string, string> = OWNER) =>
    fetch(`${adminBase}:append`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const good = {
    personId: 'pa',
    operation: 'export',
    resource: 'export',
    resourceName: 'persons/pa',
    methodName: 'bosted.api.ExportPerson',
    principal: { uid: 'adm', email: 'adm@rules.test', role: 'admin' },
    count: 1,
    callerIp: '10.0.0.7',
  }
  expect((await append({ entries: [good] }, {})).status).toBe(403)
  expect((await append({ entries: [{ ...good, operation: 'rewrite' }] })).status).toBe(400)
  expect((await append({ entries: [{ ...good, principal: { role: 'god' } }] })).status).toBe(400)
  expect((await append({ entries: [] })).status).toBe(400)
  expect((await append({ entries: [{ ...good, personId: 'a/b' }] })).status).toBe(400)
  const response = await append({ entries: [good] })
  expect(response.status).toBe(200)
  expect((await logOf('pa'))[0]).toMatchObject({
    protoPayload: {
      serviceName: 'bosted-api',
      methodName: 'bosted.api.ExportPerson',
      requestMetadata: { callerIp: '10.0.0.7' },
    },
    labels: { operation: 'export', role: 'admin' },
  })
  // There is no way to change or remove an entry.
  for (const method of ['PUT', 'PATCH', 'DELETE'])
    expect((await fetch(`${adminBase}?personId=pa`, { method, headers: OWNER })).status).toBe(404)
  expect(await totalEntries()).toBeGreaterThan(0)
})
