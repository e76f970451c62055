import { DocumentReference, GeoPoint, Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readEnv } from '../env.ts'
import { createFirebase, type Firebase } from './firebase.ts'
import type { PeriodQuery } from './firestore-query.ts'

// The REST reader against firebase-admin on the same emulator-lite: the same documents, in the same
// order, with the same values wherever a schema could accept them (ADR 0027).
let firebase: Firebase

/** The values a schema can accept, which the REST reader must give exactly as firebase-admin does. */
const PLAIN = {
  text: 'Godt',
  empty: '',
  whole: 3,
  large: 2 ** 40,
  negative: -7,
  fraction: 2.5,
  infinite: Number.POSITIVE_INFINITY,
  yes: true,
  no: false,
  nothing: null,
  list: [1, 'to', { tre: [3] }],
  map: { inner: { deeper: 'x' }, emptyMap: {} },
}

const record = (personId: string, day: string, extra: Record<string, unknown>) => ({
  personId,
  locationId: 'east',
  day,
  ...extra,
})

beforeAll(async () => {
  firebase = createFirebase({
    projectId: readEnv().FIREBASE_PROJECT_ID,
    firestoreProjectId: 'demo-api-firestore-query',
    useFirestoreEmulator: true,
  })
  const { db } = firebase
  const every = {
    ...PLAIN,
    notANumber: Number.NaN,
    at: Timestamp.fromMillis(Date.UTC(2026, 9, 25, 1, 30, 0, 123)),
    bytes: Buffer.from('hej'),
    ref: db.doc('persons/anna'),
    place: new GeoPoint(55.67, 12.57),
    comment: 'not projected',
  }
  await Promise.all([
    db.doc('persons/anna/registrations/r1').set(record('anna', '2026-10-24', every)),
    db.doc('persons/anna/registrations/r2').set(record('anna', '2026-10-25', { text: 'Skidt', whole: 1 })),
    db.doc('persons/bo/registrations/r3').set(record('bo', '2026-10-26', { text: 'Godt', whole: 4 })),
    // Outside the period, and another location: not returned.
    db.doc('persons/bo/registrations/r4').set(record('bo', '2026-10-27', { text: 'Godt' })),
    db.doc('persons/cy/registrations/r5').set({ ...record('cy', '2026-10-25', { text: 'Godt' }), locationId: 'west' }),
    // A record at the root: no person above it.
    db.doc('registrations/r6').set(record('', '2026-10-25', { text: 'Godt' })),
  ])
})
afterAll(() => firebase.close())

/** Every field written (but the comment), and one no document has. */
const PROJECTED = [
  'personId',
  'locationId',
  'day',
  ...Object.keys(PLAIN),
  'notANumber',
  'at',
  'bytes',
  'ref',
  'place',
  'missing',
]

/** firebase-admin's classes and the REST reader's tagged objects, as the kind of value they are. */
function kinds(value: unknown): unknown {
  if (value instanceof Timestamp || (isObject(value) && 'timestamp' in value)) return 'a timestamp'
  if (Buffer.isBuffer(value) || (isObject(value) && 'bytes' in value)) return 'bytes'
  if (value instanceof DocumentReference || (isObject(value) && 'reference' in value)) return 'a reference'
  if (value instanceof GeoPoint || (isObject(value) && 'geoPoint' in value)) return 'a geo point'
  if (Array.isArray(value)) return value.map(kinds)
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, kinds(inner)]))
  return value
}
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/** East's registrations of 24–26 October (r4 is of the 27th, r5 of another location). */
const EAST_PERIOD = { collectionId: 'registrations', locationId: 'east', from: '2026-10-24', to: '2026-10-26' }

async function both(query: PeriodQuery) {
  const rest = await firebase.periodQuery(query)
  const admin = await firebase.db
    .collectionGroup(query.collectionId)
    .where('locationId', '==', query.locationId)
    .where('day', '>=', query.from)
    .where('day', '<=', query.to)
    .select(...query.fields)
    .get()
  return {
    rest: rest.map(({ path, data }) => ({ path, data: kinds(data) })),
    admin: admin.docs.map((snapshot) => ({ path: snapshot.ref.path, data: kinds(snapshot.data()) })),
  }
}

test('a projected query reads what firebase-admin reads: the documents, their order and every kind of value', async () => {
  const { rest, admin } = await both({
    ...EAST_PERIOD,
    fields: PROJECTED,
  })
  expect(rest).toEqual(admin)
  expect(rest.map(({ path }) => path)).toEqual([
    'persons/anna/registrations/r1',
    'persons/anna/registrations/r2',
    'registrations/r6',
    'persons/bo/registrations/r3',
  ])
  const first = (
    await firebase.periodQuery({
      ...EAST_PERIOD,
      to: '2026-10-24',
      fields: PROJECTED,
    })
  )[0]?.data
  // The values a schema reads, exactly; what was not projected is not there.
  expect(first).toMatchObject(PLAIN)
  expect(first?.notANumber).toBeNaN()
  expect(first).not.toHaveProperty('comment')
  expect(first).not.toHaveProperty('missing')
})

test('without fields only the names are read, as firebase-admin reads them', async () => {
  const { rest, admin } = await both({
    ...EAST_PERIOD,
    fields: [],
  })
  expect(rest).toEqual(admin)
  expect(rest).toHaveLength(4)
  expect(rest.every(({ data }) => Object.keys(data as object).length === 0)).toBe(true)
})

test('a period without records reads nothing', async () => {
  const { rest, admin } = await both({
    ...EAST_PERIOD,
    collectionId: 'notes',
    fields: ['day'],
  })
  expect(rest).toEqual([])
  expect(admin).toEqual([])
})
