import {
  Bytes,
  collection,
  doc,
  endAt,
  endBefore,
  GeoPoint,
  getDoc,
  getDocs,
  limitToLast,
  orderBy,
  type Query,
  query,
  startAfter,
  startAt,
  Timestamp,
  where,
  writeBatch,
} from 'firebase/firestore/lite'
import type { Query as AdminQuery } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { connectConformanceTarget, connectSdks, type Sdks } from './sdk.ts'

// Conformance: query semantics through the official SDKs (Lite sends names and adds implicit
// orderBys itself; admin sends integer enums and relies on the server for implicit ordering).

let sdk: Sdks

beforeAll(async () => {
  sdk = await connectConformanceTarget()
  // Name order (a…f) differs from age order (b e a d f c), so ordering bugs cannot hide behind it.
  const batch = sdk.admin.batch()
  const people: Record<string, { age: number; role: string }> = {
    a: { age: 30, role: 'x' },
    b: { age: 20, role: 'y' },
    c: { age: 40, role: 'x' },
    d: { age: 30, role: 'y' },
    e: { age: 25, role: 'x' },
    f: { age: 30, role: 'w' },
  }
  for (const [id, data] of Object.entries(people)) batch.set(sdk.admin.collection('people').doc(id), data)
  await batch.commit()
})

afterAll(() => sdk.close())

const liteIds = async (q: Query) => (await getDocs(q)).docs.map((d) => d.id)
const adminIds = async (q: AdminQuery) => (await q.get()).docs.map((d) => d.id)
const people = () => collection(sdk.lite, 'people')
const adminPeople = () => sdk.admin.collection('people')

describe('filters', () => {
  test('<= and >= bound a range, ordered by the field then the name', async () => {
    expect(await liteIds(query(people(), where('age', '<=', 30)))).toEqual(['b', 'e', 'a', 'd', 'f'])
    expect(await liteIds(query(people(), where('age', '>=', 25), where('age', '<=', 30)))).toEqual(['e', 'a', 'd', 'f'])
    expect(await adminIds(adminPeople().where('age', '<=', 25))).toEqual(['b', 'e'])
    expect(await liteIds(query(people(), where('age', '<=', 19)))).toEqual([])
  })

  test('an AND of filters on two different fields keeps only documents matching both', async () => {
    expect(await liteIds(query(people(), where('role', '==', 'x'), where('age', '>=', 30)))).toEqual(['a', 'c'])
    expect(await liteIds(query(people(), where('role', '==', 'y'), where('age', '==', 30)))).toEqual(['d'])
    // Admin sends no orderBy: the server orders by the inequality field (age), not by name (a, c, e).
    expect(await adminIds(adminPeople().where('role', '==', 'x').where('age', '>', 20))).toEqual(['e', 'a', 'c'])
  })

  test('an inequality without orderBy comes back ordered by that field, then __name__', async () => {
    expect(await adminIds(adminPeople().where('age', '>', 0))).toEqual(['b', 'e', 'a', 'd', 'f', 'c'])
    expect(await adminIds(adminPeople().where('age', '!=', 25))).toEqual(['b', 'a', 'd', 'f', 'c'])
    expect(await liteIds(query(people(), where('age', '>', 0)))).toEqual(['b', 'e', 'a', 'd', 'f', 'c'])
    // Two inequality fields: ordered by each in field-path order (age, then role), then name.
    expect(await adminIds(adminPeople().where('role', '>', 'a').where('age', '>=', 30))).toEqual(['f', 'a', 'd', 'c'])
  })

  test('unary filters: == null, == NaN, != null and != NaN', async () => {
    const batch = writeBatch(sdk.lite)
    const values: Record<string, unknown> = { n1: null, nan: Number.NaN, one: 1, str: 'a', no: false }
    for (const [id, x] of Object.entries(values)) batch.set(doc(sdk.lite, 'unary', id), { x })
    batch.set(doc(sdk.lite, 'unary', 'absent'), { y: 1 })
    await batch.commit()
    const unary = collection(sdk.lite, 'unary')
    expect(await liteIds(query(unary, where('x', '==', null)))).toEqual(['n1'])
    expect(await liteIds(query(unary, where('x', '==', Number.NaN)))).toEqual(['nan'])
    // != null: every document that has x and where it is not null, in value order (false < NaN < 1 < 'a').
    expect(await liteIds(query(unary, where('x', '!=', null)))).toEqual(['no', 'nan', 'one', 'str'])
    expect(await liteIds(query(unary, where('x', '!=', Number.NaN)))).toEqual(['no', 'one', 'str'])
    // not-in excludes null values; a null inside the not-in list matches nothing at all (as the backend does).
    expect(await liteIds(query(unary, where('x', 'not-in', [1])))).toEqual(['no', 'nan', 'str'])
    expect(await liteIds(query(unary, where('x', 'not-in', [null, 1])))).toEqual([])
    const adminUnary = sdk.admin.collection('unary')
    expect(await adminIds(adminUnary.where('x', '==', null))).toEqual(['n1'])
    expect(await adminIds(adminUnary.where('x', '==', Number.NaN))).toEqual(['nan'])
    expect(await adminIds(adminUnary.where('x', '!=', null))).toEqual(['no', 'nan', 'one', 'str'])
  })
})

describe('cursors, offset and limitToLast', () => {
  test('startAt, endAt and endBefore by value, ascending and descending', async () => {
    const byAge = (...rest: Parameters<typeof query>[1][]) => liteIds(query(people(), orderBy('age'), ...rest))
    expect(await byAge(startAt(25))).toEqual(['e', 'a', 'd', 'f', 'c'])
    expect(await byAge(startAfter(25))).toEqual(['a', 'd', 'f', 'c'])
    expect(await byAge(endAt(30))).toEqual(['b', 'e', 'a', 'd', 'f'])
    expect(await byAge(endBefore(30))).toEqual(['b', 'e'])
    expect(await byAge(startAt(25), endBefore(40))).toEqual(['e', 'a', 'd', 'f'])
    expect(await byAge(startAt(26), endAt(29))).toEqual([])
    const desc = (...rest: Parameters<typeof query>[1][]) => liteIds(query(people(), orderBy('age', 'desc'), ...rest))
    expect(await desc(startAt(30))).toEqual(['f', 'd', 'a', 'e', 'b'])
    expect(await desc(endAt(30))).toEqual(['c', 'f', 'd', 'a'])
    expect(await desc(endBefore(25))).toEqual(['c', 'f', 'd', 'a'])
  })

  test('cursors from document snapshots include __name__ and split ties', async () => {
    const a = await getDoc(doc(people(), 'a'))
    const d = await getDoc(doc(people(), 'd'))
    const byAge = (...rest: Parameters<typeof query>[1][]) => liteIds(query(people(), orderBy('age'), ...rest))
    expect(await byAge(startAt(a))).toEqual(['a', 'd', 'f', 'c'])
    expect(await byAge(startAfter(a))).toEqual(['d', 'f', 'c'])
    expect(await byAge(endBefore(d))).toEqual(['b', 'e', 'a'])
    expect(await byAge(startAfter(a), endAt(d))).toEqual(['d'])
    const adminA = await adminPeople().doc('a').get()
    expect(await adminIds(adminPeople().orderBy('age').startAfter(adminA))).toEqual(['d', 'f', 'c'])
  })

  test('admin offset skips after cursors and before limit', async () => {
    expect(await adminIds(adminPeople().orderBy('age').offset(1).limit(2))).toEqual(['e', 'a'])
    expect(await adminIds(adminPeople().orderBy('age').startAfter(25).offset(1))).toEqual(['d', 'f', 'c'])
    expect(await adminIds(adminPeople().orderBy('age', 'desc').offset(4))).toEqual(['e', 'b'])
    expect(await adminIds(adminPeople().offset(10))).toEqual([])
    expect((await adminPeople().where('role', '==', 'x').offset(1).get()).size).toBe(2)
  })

  test('limitToLast combined with cursors returns the last rows of the bounded range, in order', async () => {
    const byAge = (...rest: Parameters<typeof query>[1][]) => liteIds(query(people(), orderBy('age'), ...rest))
    expect(await byAge(endBefore(40), limitToLast(2))).toEqual(['d', 'f'])
    expect(await byAge(startAt(25), limitToLast(2))).toEqual(['f', 'c'])
    expect(await byAge(startAfter(20), endAt(30), limitToLast(3))).toEqual(['a', 'd', 'f'])
    expect(await byAge(startAt(25), endBefore(30), limitToLast(5))).toEqual(['e'])
    expect(await liteIds(query(people(), orderBy('age', 'desc'), endAt(25), limitToLast(2)))).toEqual(['a', 'e'])
    expect(await adminIds(adminPeople().orderBy('age').endBefore(40).limitToLast(2))).toEqual(['d', 'f'])
    expect(await adminIds(adminPeople().orderBy('age').startAt(25).endAt(30).limitToLast(2))).toEqual(['d', 'f'])
  })
})

test("orderBy over mixed types follows Firestore's cross-type value order", async () => {
  // In ascending order. Ids run backwards so that name order is the opposite of value order.
  const ordered: unknown[] = [
    null,
    false,
    true,
    Number.NaN,
    Number.NEGATIVE_INFINITY,
    -1,
    0.5,
    1,
    1.5,
    2,
    Number.POSITIVE_INFINITY,
    Timestamp.fromMillis(0),
    Timestamp.fromMillis(1_700_000_000_000),
    '',
    'B',
    'a',
    'é',
    Bytes.fromUint8Array(new Uint8Array([0])),
    Bytes.fromUint8Array(new Uint8Array([0, 1])),
    Bytes.fromUint8Array(new Uint8Array([255])),
    doc(sdk.lite, 'people/a'),
    doc(sdk.lite, 'people/a/sub/x'),
    doc(sdk.lite, 'people/b'),
    new GeoPoint(-10, 50),
    new GeoPoint(10, -50),
    new GeoPoint(10, 50),
    [],
    [1, 2],
    [1, 'a'],
    [2],
    {},
    { a: 1 },
    { a: 'x' },
    { b: 0 },
  ]
  const id = (index: number) => `v${String(99 - index).padStart(2, '0')}`
  const batch = writeBatch(sdk.lite)
  ordered.forEach((v, index) => {
    batch.set(doc(sdk.lite, 'mixed', id(index)), { v })
  })
  batch.set(doc(sdk.lite, 'mixed', 'no-v'), { w: 1 })
  await batch.commit()
  const expected = ordered.map((_, index) => id(index))
  const mixed = collection(sdk.lite, 'mixed')
  expect(await liteIds(query(mixed, orderBy('v')))).toEqual(expected)
  expect(await liteIds(query(mixed, orderBy('v', 'desc')))).toEqual([...expected].reverse())
  expect(await adminIds(sdk.admin.collection('mixed').orderBy('v'))).toEqual(expected)
  // A range filter only matches values of its operand's type: numbers here, never timestamps or strings.
  expect(await liteIds(query(mixed, where('v', '>=', 0)))).toEqual(expected.slice(6, 11))
  expect(await liteIds(query(mixed, where('v', '<', 'a')))).toEqual(expected.slice(13, 15))
  expect(await adminIds(sdk.admin.collection('mixed').where('v', '==', 1.5))).toEqual([id(8)])
  // A null in an `in` list matches nothing, as in Google's emulator (the parity differential).
  expect(await adminIds(sdk.admin.collection('mixed').where('v', 'in', [1, 'a', null]))).toEqual([id(15), id(7)])
})

describe('listing', () => {
  test('root listCollections names every top-level collection, including one holding only missing documents', async () => {
    const fresh = connectSdks(sdk.firestoreHost, sdk.storageHost, {
      firestore: sdk.adminFirestoreHost,
      storage: sdk.adminStorageHost,
    })
    try {
      await fresh.admin.doc('zeta/z').set({ x: 1 })
      await fresh.admin.doc('alpha/a').set({ x: 1 })
      await fresh.admin.doc('ghosts/g/inner/i').set({ x: 1 })
      await fresh.admin.doc('alpha/a/nested/n').set({ x: 1 })
      expect((await fresh.admin.listCollections()).map((c) => c.id)).toEqual(['alpha', 'ghosts', 'zeta'])
      expect((await fresh.admin.doc('ghosts/g').listCollections()).map((c) => c.id)).toEqual(['inner'])
      expect(await sdk.admin.doc('ghosts/g').listCollections()).toEqual([])
    } finally {
      await fresh.close()
    }
  })

  test('listDocuments pages through more documents than fit in a page and shows missing parents', async () => {
    const many = sdk.admin.collection('many')
    const ids = Array.from({ length: 450 }, (_, i) => `d${String(i).padStart(3, '0')}`)
    const batch = sdk.admin.batch()
    for (const id of ids) batch.set(many.doc(id), { id })
    await batch.commit()
    // `d200x` exists only as the parent of a subcollection document.
    await many.doc('d200x').collection('sub').doc('s').set({ x: 1 })
    const listed = (await many.listDocuments()).map((ref) => ref.id)
    const expected = [...ids, 'd200x'].sort()
    expect(listed.length).toBe(expected.length)
    expect(listed).toEqual(expected)
    expect((await many.doc('d200x').get()).exists).toBe(false)
    // The missing parent is listed, but a query does not return it.
    expect((await many.count().get()).data().count).toBe(450)
  })
})
