import {
  addDoc,
  arrayRemove,
  arrayUnion,
  average,
  collection,
  collectionGroup,
  deleteDoc,
  deleteField,
  doc,
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
  updateDoc,
  where,
  writeBatch,
} from 'firebase/firestore/lite'
import { FieldValue } from 'firebase-admin/firestore'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'
import { connectSdks, type Sdks } from './sdk.ts'

let emulator: EmulatorLite | null = null
let sdk: Sdks

beforeAll(async () => {
  // Against the official emulator: set EMULATOR_LITE_TARGET=external and the *_EMULATOR_HOST variables.
  if (process.env.EMULATOR_LITE_TARGET === 'external') {
    sdk = connectSdks(
      process.env.FIRESTORE_EMULATOR_HOST as string,
      process.env.FIREBASE_STORAGE_EMULATOR_HOST as string,
    )
    return
  }
  emulator = await startEmulatorLite({ firestorePort: 0, storagePort: 0, inMemory: true })
  sdk = connectSdks(`127.0.0.1:${emulator.firestorePort}`, `127.0.0.1:${emulator.storagePort}`)
})

afterAll(async () => {
  await sdk.close()
  await emulator?.close()
})

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
