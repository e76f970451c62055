import { afterAll, beforeAll, expect, test } from 'vitest'
import type { FirebaseClients } from './lib/firebase.ts'
import { migrate } from './migrate-project.ts'
import { seed } from './seed-project.ts'
import { clientsFor, updateTimes } from './testing/emulators.ts'

const PROJECT = 'demo-seed-migrate'
const NOW = new Date('2026-05-01T10:00:00.000Z')
const options = { projectId: PROJECT, bucket: `${PROJECT}.appspot.com`, now: NOW }
let clients: FirebaseClients

// Answers as older versions of the app left them: some fields missing or null.
const INCOMPLETE: Record<string, Record<string, unknown>> = {
  'no-entity': { id: 'no-entity', text: 'Glad', value: 4, hidden: true, createdAt: '2024-01-01T00:00:00.000Z' },
  'no-hidden': { id: 'no-hidden', text: 'Rolig', value: 3, entity: 'location', createdAt: '2024-01-02T00:00:00.000Z' },
  'no-created': { id: 'no-created', text: 'Urolig', value: 2, entity: 'location', hidden: false },
  nothing: { text: 'Ked af det', value: 1 },
  nulls: { id: 'nulls', text: 'Træt', value: 2, entity: null, hidden: null, createdAt: null },
}

beforeAll(async () => {
  clients = clientsFor(PROJECT)
  await seed({ ...options, reset: true, today: '2026-05-01' })
  const batch = clients.db.batch()
  for (const [id, data] of Object.entries(INCOMPLETE))
    batch.set(clients.db.doc(`locations/egebakken/answers/${id}`), data)
  // An answers subcollection under a location document that is gone still belongs to a location.
  batch.set(clients.db.doc('locations/old-location/answers/orphan'), { text: 'Gammel', value: 1 })
  // A person's answer with fields missing is not a location answer: the migration leaves it alone.
  batch.set(clients.db.doc('persons/demo-borger01/answers/incomplete'), { text: 'Sov godt', value: 3 })
  await batch.commit()
})

afterAll(async () => {
  await clients.close()
})

test('the migration fills exactly the missing fields of incomplete location answers and touches nothing else', async () => {
  const before = await updateTimes(clients)
  const lines: string[] = []
  const [result, careRecords] = await migrate({ ...options, log: (line) => lines.push(line) })
  expect(result).toMatchObject({ id: '001-location-answer-defaults', updated: 6 })
  // The seed already writes what 002 adds.
  expect(careRecords).toMatchObject({ id: '002-care-record-locations', updated: 0 })
  expect(lines).toEqual([
    expect.stringMatching(/^migrate: 001-location-answer-defaults: \d+ scanned in 4 locations, 6 updated in \d+ ms$/),
    expect.stringMatching(
      /^migrate: 002-care-record-locations: \d+ scanned for \d+ persons in locations, 0 updated in \d+ ms$/,
    ),
    expect.stringMatching(/^migrate: done: 2 migrations, 6 documents updated in \d+ ms$/),
  ])
  const read = async (path: string) => (await clients.db.doc(path).get()).data()
  const now = NOW.toISOString()
  expect(await read('locations/egebakken/answers/no-entity')).toEqual({
    ...INCOMPLETE['no-entity'],
    entity: 'location',
  })
  expect(await read('locations/egebakken/answers/no-hidden')).toEqual({ ...INCOMPLETE['no-hidden'], hidden: false })
  expect(await read('locations/egebakken/answers/no-created')).toEqual({ ...INCOMPLETE['no-created'], createdAt: now })
  expect(await read('locations/egebakken/answers/nothing')).toEqual({
    text: 'Ked af det',
    value: 1,
    entity: 'location',
    hidden: false,
    createdAt: now,
  })
  expect(await read('locations/egebakken/answers/nulls')).toEqual({
    id: 'nulls',
    text: 'Træt',
    value: 2,
    entity: 'location',
    hidden: false,
    createdAt: now,
  })
  expect(await read('locations/old-location/answers/orphan')).toMatchObject({ entity: 'location', hidden: false })
  expect(await read('persons/demo-borger01/answers/incomplete')).toEqual({ text: 'Sov godt', value: 3 })

  // complete answers (every seeded one) keep their update time: they were not written at all
  const after = await updateTimes(clients)
  const changed = [...after].filter(([path, time]) => before.get(path) !== time).map(([path]) => path)
  expect(changed.sort()).toEqual(
    [
      ...Object.keys(INCOMPLETE).map((id) => `locations/egebakken/answers/${id}`),
      'locations/old-location/answers/orphan',
    ].sort(),
  )
})

test('persons, registrations and notes written before locationId existed get their person and location', async () => {
  const { FieldValue } = await import('firebase-admin/firestore')
  const person = 'persons/demo-borger01'
  const [registration] = (await clients.db.collection(`${person}/registrations`).limit(1).get()).docs
  const [note] = (await clients.db.collection(`${person}/notes`).limit(1).get()).docs
  if (!registration || !note) throw new Error('the seed has registrations and notes for demo-borger01')
  const expected = (await clients.db.doc(person).get()).get('locationId') as string
  expect(typeof expected).toBe('string')
  const batch = clients.db.batch()
  batch.update(clients.db.doc(person), { locationId: FieldValue.delete() })
  batch.update(registration.ref, { personId: FieldValue.delete(), locationId: FieldValue.delete() })
  batch.update(note.ref, { locationId: 'somewhere-else' })
  await batch.commit()
  const before = await updateTimes(clients)

  const results = await migrate(options)
  expect(results.find((result) => result.id === '002-care-record-locations')?.updated).toBe(3)
  expect((await clients.db.doc(person).get()).get('locationId')).toBe(expected)
  expect((await registration.ref.get()).data()).toMatchObject({ personId: 'demo-borger01', locationId: expected })
  expect((await note.ref.get()).data()).toMatchObject({ personId: 'demo-borger01', locationId: expected })
  const changed = [...(await updateTimes(clients))].filter(([path, time]) => before.get(path) !== time)
  expect(changed.map(([path]) => path).sort()).toEqual([person, registration.ref.path, note.ref.path].sort())
})

test('a second migration run changes nothing', async () => {
  const before = await updateTimes(clients)
  const results = await migrate({ ...options, now: new Date('2026-06-01T00:00:00.000Z') })
  expect(results.map((result) => result.updated)).toEqual([0, 0])
  expect(await updateTimes(clients)).toEqual(before)
})
