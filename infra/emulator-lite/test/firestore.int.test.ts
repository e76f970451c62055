import {
  addDoc,
  arrayRemove,
  arrayUnion,
  average,
  Bytes,
  collection,
  collectionGroup,
  deleteDoc,
  deleteField,
  doc,
  GeoPoint,
  getAggregate,
  getCount,
  getDoc,
  getDocs,
  increment,
  limit,
  limitToLast,
  or,
  orderBy,
  query,
  runTransaction,
  serverTimestamp,
  setDoc,
  startAfter,
  sum,
  Timestamp,
  updateDoc,
  where,
  writeBatch,
} from 'firebase/firestore/lite'
import { deleteApp as deleteAdminApp, initializeApp as initializeAdminApp } from 'firebase-admin/app'
import {
  DocumentReference as AdminDocumentReference,
  GeoPoint as AdminGeoPoint,
  Timestamp as AdminTimestamp,
  FieldValue,
  initializeFirestore,
} from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { connectConformanceTarget, type Sdks } from './sdk.ts'

let sdk: Sdks

beforeAll(async () => {
  sdk = await connectConformanceTarget()
})

afterAll(() => sdk.close())

test('Lite writes and reads back every value type', async () => {
  const ref = doc(sdk.lite, 'types/all')
  const date = new Date('2023-11-14T22:13:20.123Z')
  await setDoc(ref, {
    n: null,
    b: true,
    i: 42,
    d: 3.5,
    s: 'héllo',
    t: date,
    arr: [1, 'a', { x: 1 }],
    map: { a: { b: 1 }, 'dotted.key': 2 },
    ref: doc(sdk.lite, 'posts/p1'),
  })
  const snapshot = await getDoc(ref)
  expect(snapshot.exists()).toBe(true)
  const data = snapshot.data()
  expect(data).toMatchObject({ n: null, b: true, i: 42, d: 3.5, s: 'héllo', arr: [1, 'a', { x: 1 }] })
  expect(data?.map).toEqual({ a: { b: 1 }, 'dotted.key': 2 })
  expect(data?.t.toDate().toISOString()).toBe(date.toISOString())
  expect(data?.ref.path).toBe('posts/p1')
  expect((await getDoc(doc(sdk.lite, 'types/missing'))).exists()).toBe(false)
})

test('Lite updates with masks and every transform, and rejects updating a missing document', async () => {
  const ref = doc(sdk.lite, 'transforms/a')
  await setDoc(ref, { i: 1, d: 1.5, tags: ['old', 'keep'], gone: true, map: { a: { b: 1 } } })
  await updateDoc(ref, {
    'map.a.c': 2,
    i: increment(2),
    d: increment(0.5),
    arr: arrayUnion('z', 1),
    tags: arrayRemove('old'),
    ts: serverTimestamp(),
    gone: deleteField(),
  })
  const data = (await getDoc(ref)).data()
  expect(data).toMatchObject({ i: 3, d: 2, arr: ['z', 1], tags: ['keep'], map: { a: { b: 1, c: 2 } } })
  expect(data?.gone).toBeUndefined()
  expect(data?.ts.toDate().getTime()).toBeGreaterThan(Date.now() - 60_000)
  await setDoc(ref, { extra: 'x' }, { merge: true })
  expect((await getDoc(ref)).data()).toMatchObject({ i: 3, extra: 'x' })
  await expect(updateDoc(doc(sdk.lite, 'transforms/missing'), { a: 1 })).rejects.toMatchObject({ code: 'not-found' })
})

test('Lite queries filter, order, limit, page with cursors and count', async () => {
  const people = collection(sdk.lite, 'people')
  const batch = writeBatch(sdk.lite)
  const rows = [
    { id: 'ann', age: 30, role: 'a', tags: ['x'] },
    { id: 'bo', age: 25, role: 'b', tags: ['y'] },
    { id: 'cy', age: 35, role: 'a', tags: ['x', 'y'] },
    { id: 'di', age: 30, role: 'c', tags: [] },
    { id: 'ed', role: 'a', tags: ['z'] },
  ]
  for (const { id, ...data } of rows) batch.set(doc(people, id), data)
  await batch.commit()

  const ids = async (q: Parameters<typeof getDocs>[0]) => (await getDocs(q)).docs.map((d) => d.id)
  expect(await ids(query(people, where('age', '==', 30)))).toEqual(['ann', 'di'])
  expect(await ids(query(people, where('age', '>', 26), orderBy('age', 'desc')))).toEqual(['cy', 'di', 'ann'])
  expect(await ids(query(people, where('role', 'in', ['b', 'c'])))).toEqual(['bo', 'di'])
  expect(await ids(query(people, where('role', 'not-in', ['a'])))).toEqual(['bo', 'di'])
  expect(await ids(query(people, where('age', '!=', 30)))).toEqual(['bo', 'cy'])
  expect(await ids(query(people, where('tags', 'array-contains', 'x')))).toEqual(['ann', 'cy'])
  expect(await ids(query(people, where('tags', 'array-contains-any', ['y', 'z'])))).toEqual(['bo', 'cy', 'ed'])
  expect(await ids(query(people, or(where('age', '<', 26), where('role', '==', 'c'))))).toEqual(['bo', 'di'])
  // Documents without the ordered field are left out.
  expect(await ids(query(people, orderBy('age'), limit(2)))).toEqual(['bo', 'ann'])
  expect(await ids(query(people, orderBy('age'), limitToLast(2)))).toEqual(['di', 'cy'])
  const first = await getDocs(query(people, orderBy('age'), limit(2)))
  expect(await ids(query(people, orderBy('age'), startAfter(first.docs[1]), limit(2)))).toEqual(['di', 'cy'])
  expect((await getCount(query(people, where('role', '==', 'a')))).data().count).toBe(3)
  const aggregate = await getAggregate(people, { total: sum('age'), mean: average('age') })
  expect(aggregate.data()).toEqual({ total: 120, mean: 30 })
})

test('collection-group queries find documents at any depth', async () => {
  await setDoc(doc(sdk.lite, 'users/u1/posts/p1'), { n: 1 })
  await setDoc(doc(sdk.lite, 'users/u2/posts/p2'), { n: 2 })
  await addDoc(collection(sdk.lite, 'posts'), { n: 3 })
  const result = await getDocs(query(collectionGroup(sdk.lite, 'posts'), where('n', '>=', 1)))
  expect(result.docs.map((d) => d.data().n).sort()).toEqual([1, 2, 3])
  expect((await getDocs(collection(sdk.lite, 'users/u1/posts'))).docs.map((d) => d.id)).toEqual(['p1'])
})

test('Lite transactions commit with preconditions, and deleting works', async () => {
  const ref = doc(sdk.lite, 'counters/lite')
  await setDoc(ref, { n: 0 })
  await Promise.all(
    Array.from({ length: 5 }, () =>
      runTransaction(sdk.lite, async (tx) => {
        const current = (await tx.get(ref)).data()?.n as number
        tx.update(ref, { n: current + 1 })
      }),
    ),
  )
  expect((await getDoc(ref)).data()?.n).toBe(5)
  await deleteDoc(ref)
  expect((await getDoc(ref)).exists()).toBe(false)
})

test('admin (preferRest) sets, updates, queries, lists and batches', async () => {
  const users = sdk.admin.collection('admin-users')
  await users.doc('a').set({ name: 'Ann', age: 30, at: FieldValue.serverTimestamp() })
  await users.doc('b').set({ name: 'Bo', age: 25 })
  await users.doc('a').update({ age: FieldValue.increment(1), tags: FieldValue.arrayUnion('x') })
  const a = await users.doc('a').get()
  expect(a.data()).toMatchObject({ name: 'Ann', age: 31, tags: ['x'] })
  const young = await users.where('age', '<', 31).orderBy('age').select('name').get()
  expect(young.docs.map((d) => d.data())).toEqual([{ name: 'Bo' }])
  expect((await users.where('age', '>', 100).get()).empty).toBe(true)
  expect((await users.count().get()).data().count).toBe(2)
  const [x, y] = await sdk.admin.getAll(users.doc('a'), users.doc('missing'))
  expect(x?.exists).toBe(true)
  expect(y?.exists).toBe(false)
  await users.doc('a').collection('notes').doc('n1').set({ t: 1 })
  expect((await users.listDocuments()).map((d) => d.id).sort()).toEqual(['a', 'b'])
  expect((await users.doc('a').listCollections()).map((c) => c.id)).toEqual(['notes'])
  const batch = sdk.admin.batch()
  batch.delete(users.doc('b'))
  batch.set(users.doc('c'), { name: 'Cy' })
  await batch.commit()
  expect((await users.get()).docs.map((d) => d.id)).toEqual(['a', 'c'])
  await expect(users.doc('zzz').update({ a: 1 })).rejects.toMatchObject({ code: 5 })
})

test('a batch whose last write fails leaves nothing of its earlier writes behind', async () => {
  const items = sdk.admin.collection('atomic')
  await items.doc('kept').set({ v: 1 })
  const batch = sdk.admin.batch()
  batch.set(items.doc('new'), { v: 2 })
  batch.delete(items.doc('kept'))
  batch.update(items.doc('missing'), { v: 3 })
  await expect(batch.commit()).rejects.toMatchObject({ code: 5 })
  expect((await items.get()).docs.map((d) => [d.id, d.data()])).toEqual([['kept', { v: 1 }]])
  expect((await items.where('v', '>=', 0).get()).size).toBe(1)
})

test('N concurrent admin transactions incrementing one counter end at exactly N', async () => {
  const ref = sdk.admin.collection('counters').doc('admin')
  await ref.set({ n: 0 })
  const n = 10
  await Promise.all(
    Array.from({ length: n }, () =>
      sdk.admin.runTransaction(async (tx) => {
        const snapshot = await tx.get(ref)
        tx.update(ref, { n: (snapshot.data()?.n as number) + 1 })
      }),
    ),
  )
  expect((await ref.get()).data()?.n).toBe(n)
})

test('admin recursiveDelete removes a collection and everything below it', async () => {
  const root = sdk.admin.collection('tree')
  await root.doc('a').set({ x: 1 })
  await root.doc('a').collection('kids').doc('k').set({ y: 1 })
  await sdk.admin.recursiveDelete(root)
  expect((await root.get()).empty).toBe(true)
  expect((await root.doc('a').collection('kids').get()).empty).toBe(true)
})

describe('values', () => {
  const nested = { a: [1, { b: [true, null, 'x', { c: { d: [2.5, 'y'] } }] }], empty: {}, none: [] }

  test('Bytes, GeoPoint, references, NaN, -0 and nested values written by Lite read back equal in Lite and admin', async () => {
    const ref = doc(sdk.lite, 'values/lite')
    await setDoc(ref, {
      bytes: Bytes.fromUint8Array(new Uint8Array([0, 1, 2, 255])),
      geo: new GeoPoint(48.1, 11.5),
      ref: doc(sdk.lite, 'people/a/sub/x'),
      nan: Number.NaN,
      negz: -0,
      zero: 0,
      inf: Number.NEGATIVE_INFINITY,
      ts: new Timestamp(1_700_000_000, 123_456_000),
      nested,
    })
    const lite = (await getDoc(ref)).data() ?? {}
    expect(lite.bytes).toBeInstanceOf(Bytes)
    expect([...lite.bytes.toUint8Array()]).toEqual([0, 1, 2, 255])
    expect(lite.geo).toBeInstanceOf(GeoPoint)
    expect(lite.geo.isEqual(new GeoPoint(48.1, 11.5))).toBe(true)
    expect(lite.ref.path).toBe('people/a/sub/x')
    expect(Number.isNaN(lite.nan)).toBe(true)
    expect(Object.is(lite.negz, -0)).toBe(true)
    expect(Object.is(lite.zero, 0)).toBe(true)
    expect(lite.inf).toBe(Number.NEGATIVE_INFINITY)
    expect(lite.ts.isEqual(new Timestamp(1_700_000_000, 123_456_000))).toBe(true)
    expect(lite.nested).toEqual(nested)

    const admin = (await sdk.admin.doc('values/lite').get()).data() ?? {}
    expect(Buffer.isBuffer(admin.bytes) && [...admin.bytes]).toEqual([0, 1, 2, 255])
    expect(admin.geo).toBeInstanceOf(AdminGeoPoint)
    expect([admin.geo.latitude, admin.geo.longitude]).toEqual([48.1, 11.5])
    expect(admin.ref).toBeInstanceOf(AdminDocumentReference)
    expect(admin.ref.path).toBe('people/a/sub/x')
    expect(Number.isNaN(admin.nan)).toBe(true)
    expect(Object.is(admin.negz, -0)).toBe(true)
    expect(Object.is(admin.zero, 0)).toBe(true)
    expect(admin.ts.isEqual(new AdminTimestamp(1_700_000_000, 123_456_000))).toBe(true)
    expect(admin.nested).toEqual(nested)
  })

  test('admin keeps integers beyond 2^53 exact (as strings on the wire); Lite reads them as the nearest double', async () => {
    // A second admin client that reads integers as BigInt, so precision loss would show.
    const app = initializeAdminApp({ projectId: sdk.projectId }, `bigint-${sdk.projectId}`)
    const exact = initializeFirestore(app, { preferRest: true })
    // initializeFirestore does not pass useBigInt on; settings() does.
    exact.settings({
      useBigInt: true,
      auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
    } as never)
    try {
      const big = 2n ** 53n + 1n
      const max = 2n ** 63n - 1n
      const min = -(2n ** 63n)
      await sdk.admin.doc('values/admin').set({
        big,
        max,
        min,
        bytes: Buffer.from([9, 8, 7]),
        geo: new AdminGeoPoint(-33.9, 151.2),
        ref: sdk.admin.doc('people/b'),
        nan: Number.NaN,
        nested,
      })
      const data = (await exact.doc('values/admin').get()).data() ?? {}
      expect(data.big).toBe(big)
      expect(data.max).toBe(max)
      expect(data.min).toBe(min)
      expect(data.nested.a[0]).toBe(1n)
      const found = await exact.collection('values').where('big', '==', big).get()
      expect(found.docs.map((d) => d.id)).toEqual(['admin'])
      expect(
        (
          await exact
            .collection('values')
            .where('big', '==', big - 1n)
            .get()
        ).empty,
      ).toBe(true)

      const lite = (await getDoc(doc(sdk.lite, 'values/admin'))).data() ?? {}
      expect(lite.big).toBe(Number(big))
      expect([...lite.bytes.toUint8Array()]).toEqual([9, 8, 7])
      expect(lite.geo.isEqual(new GeoPoint(-33.9, 151.2))).toBe(true)
      expect(lite.ref.path).toBe('people/b')
      expect(Number.isNaN(lite.nan)).toBe(true)
      expect(lite.nested).toEqual(nested)
    } finally {
      await deleteAdminApp(app)
    }
  })
})

describe('errors on the wire (hand-built requests)', () => {
  const name = (path: string) => `projects/${sdk.projectId}/databases/(default)/documents/${path}`
  async function call(rpc: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(
      `http://${sdk.adminFirestoreHost}/v1/projects/${sdk.projectId}/databases/(default)/documents${rpc}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
        body: JSON.stringify(body),
      },
    )
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  function expectError(result: { status: number; body: unknown }, http: number, status: string): void {
    expect(result.status).toBe(http)
    expect(result.body).toMatchObject({ error: { code: http, status, message: expect.stringMatching(/\S/) } })
  }
  const stored = async (path: string) => (await sdk.admin.doc(path).get()).data()

  test('ALREADY_EXISTS (409): create over an existing document, by REST commit and by admin bulkWriter', async () => {
    await sdk.admin.doc('errors/exists').set({ a: 1 })
    const result = await call(':commit', {
      writes: [
        { update: { name: name('errors/other'), fields: { b: { integerValue: '1' } } } },
        {
          update: { name: name('errors/exists'), fields: { a: { integerValue: '2' } } },
          currentDocument: { exists: false },
        },
      ],
    })
    expectError(result, 409, 'ALREADY_EXISTS')
    expect(await stored('errors/exists')).toEqual({ a: 1 })
    expect(await stored('errors/other')).toBeUndefined()
    // admin create() would retry a 409 for minutes (docs/wire/firestore-rest.md#admin-responses-and-retries); bulkWriter reports the per-write code 6.
    const writer = sdk.admin.bulkWriter()
    writer.onWriteError(() => false)
    const created = writer.create(sdk.admin.doc('errors/exists'), { a: 3 })
    await writer.close()
    await expect(created).rejects.toMatchObject({ code: 6 })
    expect(await stored('errors/exists')).toEqual({ a: 1 })
  })

  test('FAILED_PRECONDITION (400): an updateTime precondition that no longer matches; a matching one in another precision passes', async () => {
    const ref = sdk.admin.doc('errors/versioned')
    await ref.set({ v: 1 })
    const first = await ref.get()
    await ref.update({ v: 2 })
    const stale = first.updateTime?.toDate().toISOString() as string
    const result = await call(':commit', {
      writes: [
        {
          update: { name: name('errors/versioned'), fields: { v: { integerValue: '3' } } },
          currentDocument: { updateTime: stale },
        },
      ],
    })
    expectError(result, 400, 'FAILED_PRECONDITION')
    expect(await stored('errors/versioned')).toEqual({ v: 2 })
    // Admin sends the precondition with 3 or 6 fraction digits: compared as a time, not as a string.
    const current = (await ref.get()).updateTime as AdminTimestamp
    await ref.update({ v: 4 }, { lastUpdateTime: current })
    // firebase-admin 14 reads the status from the body (9 = FAILED_PRECONDITION, as Cloud Firestore); 13 made 3 of the HTTP 400.
    await expect(ref.update({ v: 5 }, { lastUpdateTime: current })).rejects.toMatchObject({ code: 9 })
    expect(await stored('errors/versioned')).toEqual({ v: 4 })
  })

  test('NOT_FOUND (404): an update with exists=true on a missing document', async () => {
    const result = await call(':commit', {
      writes: [
        {
          update: { name: name('errors/missing'), fields: { a: { integerValue: '1' } } },
          updateMask: { fieldPaths: ['a'] },
          currentDocument: { exists: true },
        },
      ],
    })
    expectError(result, 404, 'NOT_FOUND')
    expect((await sdk.admin.doc('errors/missing').get()).exists).toBe(false)
  })

  test('ABORTED (409): committing a transaction whose read set another write changed', async () => {
    await sdk.admin.doc('errors/contended').set({ n: 0 })
    const begin = async () => (await call(':beginTransaction', { options: { readWrite: {} } })).body.transaction
    const first = await begin()
    const second = await begin()
    expect(typeof first).toBe('string')
    for (const transaction of [first, second]) {
      const read = await call(':batchGet', { documents: [name('errors/contended')], transaction })
      expect(read.status).toBe(200)
    }
    const write = (n: number, transaction: unknown) =>
      call(':commit', {
        writes: [{ update: { name: name('errors/contended'), fields: { n: { integerValue: String(n) } } } }],
        transaction,
      })
    expect((await write(1, first)).status).toBe(200)
    expectError(await write(2, second), 409, 'ABORTED')
    expect(await stored('errors/contended')).toEqual({ n: 1 })
  })

  test('INVALID_ARGUMENT (400): values of the wrong type or out of range, and unknown operators', async () => {
    const bad: Record<string, unknown>[] = [
      { integerValue: 'abc' },
      { integerValue: '9223372036854775808' },
      { integerValue: '-9223372036854775809' },
      { integerValue: 1.5 },
      { timestampValue: 'yesterday' },
      { booleanValue: 'yes' },
      { geoPointValue: { latitude: 'north' } },
      { arrayValue: { values: [{ arrayValue: 'x' }] } },
      { mysteryValue: 1 },
    ]
    for (const value of bad) {
      const result = await call(':commit', {
        writes: [{ update: { name: name('errors/typed'), fields: { a: value } } }],
      })
      expectError(result, 400, 'INVALID_ARGUMENT')
    }
    expect((await sdk.admin.doc('errors/typed').get()).exists).toBe(false)
    const query = await call(':runQuery', {
      structuredQuery: {
        from: [{ collectionId: 'errors' }],
        where: { fieldFilter: { field: { fieldPath: 'a' }, op: 'LIKE', value: { stringValue: 'x' } } },
      },
    })
    expectError(query, 400, 'INVALID_ARGUMENT')
    // The int64 bounds themselves are valid.
    const edges = await call(':commit', {
      writes: [
        {
          update: {
            name: name('errors/typed'),
            fields: { max: { integerValue: '9223372036854775807' }, min: { integerValue: '-9223372036854775808' } },
          },
        },
      ],
    })
    expect(edges.status).toBe(200)
  })

  test('maximum and minimum transforms (and increment saturating at the int64 bounds) via a hand-built commit', async () => {
    const int = (n: number | string) => ({ integerValue: String(n) })
    const double = (n: number | string) => ({ doubleValue: n })
    await call(':commit', {
      writes: [
        {
          update: {
            name: name('errors/minmax'),
            fields: {
              up: int(5),
              keep: int(5),
              dbl: double(2.5),
              mixed: int(3),
              lower: int(2),
              same: int(3),
              zero: int(0),
              text: { stringValue: 'x' },
              nanMax: int(1),
              nanMin: double('NaN'),
              top: int('9223372036854775807'),
              bottom: int('-9223372036854775808'),
              map: { mapValue: { fields: { x: int(1) } } },
            },
          },
        },
      ],
    })
    const transforms = [
      { fieldPath: 'up', maximum: int(7) },
      { fieldPath: 'keep', minimum: int(7) },
      { fieldPath: 'dbl', maximum: int(2) },
      { fieldPath: 'mixed', maximum: double(3.5) },
      { fieldPath: 'lower', minimum: double(1.5) },
      { fieldPath: 'same', maximum: double(3) },
      { fieldPath: 'zero', maximum: double(0) },
      { fieldPath: 'text', maximum: int(1) },
      { fieldPath: 'absent', minimum: int(-4) },
      { fieldPath: 'nanMax', maximum: double('NaN') },
      { fieldPath: 'nanMin', minimum: int(1) },
      { fieldPath: 'top', increment: int(1) },
      { fieldPath: 'bottom', increment: int(-1) },
      { fieldPath: 'map.x', maximum: int(9) },
    ]
    const result = await call(':commit', {
      writes: [
        {
          update: { name: name('errors/minmax') },
          updateMask: { fieldPaths: [] },
          updateTransforms: transforms,
          currentDocument: { exists: true },
        },
      ],
    })
    expect(result.status).toBe(200)
    const expected = {
      up: int(7),
      keep: int(5),
      dbl: double(2.5),
      mixed: double(3.5),
      lower: double(1.5),
      same: int(3),
      zero: int(0),
      text: int(1),
      absent: int(-4),
      nanMax: double('NaN'),
      nanMin: double('NaN'),
      top: int('9223372036854775807'),
      bottom: int('-9223372036854775808'),
      map: { mapValue: { fields: { x: int(9) } } },
    }
    const [writeResult] = result.body.writeResults as { transformResults: unknown[] }[]
    expect(writeResult?.transformResults).toEqual(
      transforms.map((t) => (t.fieldPath === 'map.x' ? int(9) : expected[t.fieldPath as keyof typeof expected])),
    )
    const read = await call(':batchGet', { documents: [name('errors/minmax')] })
    const [element] = read.body as unknown as [{ found: { fields: Record<string, unknown> } }]
    expect(element.found.fields).toEqual(expected)
  })
})
