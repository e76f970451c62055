// The Firestore differences from production that the Firebase SDKs' own test suites found (issue 23),
// each checked through the official SDKs.
import {
  average,
  collection,
  count,
  doc,
  documentId,
  getAggregate,
  getCount,
  getDoc,
  getDocs,
  increment,
  query,
  setDoc,
  sum,
  updateDoc,
  where,
} from 'firebase/firestore/lite'
import { Timestamp as AdminTimestamp, AggregateField, FieldValue } from 'firebase-admin/firestore'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { HISTORY_WINDOW_NANOS, Store } from '../src/store/store.ts'
import { connectConformanceTarget, type Sdks } from './sdk.ts'

let sdk: Sdks

beforeAll(async () => {
  sdk = await connectConformanceTarget()
})

afterAll(() => sdk.close())

// Lite reports every HTTP 400, INVALID_ARGUMENT included, as failed-precondition (docs/wire/firestore-rest.md#errors).
const invalidArgument = { code: 'failed-precondition' }

test('ids of the form __x__ are refused in writes, reads, queries, aggregations and listings', async () => {
  await expect(setDoc(doc(sdk.lite, 'reserved/__doc__'), { a: 1 })).rejects.toMatchObject(invalidArgument)
  await expect(setDoc(doc(sdk.lite, '__badpath__/doc'), { a: 1 })).rejects.toMatchObject(invalidArgument)
  await expect(getDoc(doc(sdk.lite, '__badpath__/doc'))).rejects.toMatchObject(invalidArgument)
  await expect(getDocs(collection(sdk.lite, '__badpath__'))).rejects.toMatchObject(invalidArgument)
  await expect(getDocs(collection(sdk.lite, 'reserved/__doc__/sub'))).rejects.toMatchObject(invalidArgument)
  await expect(getCount(collection(sdk.lite, '__badpath__'))).rejects.toMatchObject(invalidArgument)
  await setDoc(doc(sdk.lite, 'reserved/ok'), { a: 1 })
  await expect(
    getDocs(query(collection(sdk.lite, 'reserved'), where(documentId(), '==', '__doc__'))),
  ).rejects.toMatchObject(invalidArgument)
  await expect(sdk.admin.collection('__badpath__').listDocuments()).rejects.toMatchObject({ code: 3 })
  await expect(sdk.admin.doc('reserved/__doc__').listCollections()).rejects.toMatchObject({ code: 3 })
  expect((await getDocs(collection(sdk.lite, 'reserved'))).docs.map((d) => d.id)).toEqual(['ok'])
})

test('an aggregation counts only documents that have every field its sums and averages name', async () => {
  const books = collection(sdk.lite, 'books')
  await setDoc(doc(books, 'a'), { pages: 100, year: 1980 })
  await setDoc(doc(books, 'b'), { pages: 50, year: 2020 })
  await setDoc(doc(books, 'c'), { pages: 150, year: 2021 })
  await setDoc(doc(books, 'd'), { pages: 50 })
  const result = await getAggregate(books, {
    totalPages: sum('pages'),
    averagePages: average('pages'),
    averageYear: average('year'),
    count: count(),
  })
  expect(result.data()).toEqual({ totalPages: 300, averagePages: 100, averageYear: 2007, count: 3 })
  // A count alone still counts every document.
  expect((await getCount(books)).data().count).toBe(4)
})

test('more than five aggregations in one request are refused with the wording the SDKs match', async () => {
  const books = collection(sdk.lite, 'books6')
  await setDoc(doc(books, 'a'), { pages: 1 })
  const six = { a: count(), b: sum('pages'), c: average('pages'), d: sum('x'), e: average('x'), f: count() }
  await expect(getAggregate(books, six)).rejects.toMatchObject({
    ...invalidArgument,
    message: expect.stringContaining('maximum number of aggregations'),
  })
  const five = { a: count(), b: sum('pages'), c: average('pages'), d: count(), e: sum('pages') }
  expect((await getAggregate(books, five)).data()).toEqual({ a: 1, b: 1, c: 1, d: 1, e: 1 })
})

test('an aggregation as the first read of an admin transaction starts it and the transaction commits', async () => {
  const col = sdk.admin.collection('txagg')
  await col.doc('a').set({ n: 1 })
  await col.doc('b').set({ n: 2 })
  const seen = await sdk.admin.runTransaction(async (transaction) => {
    const snapshot = await transaction.get(
      col.aggregate({ total: AggregateField.sum('n'), count: AggregateField.count() }),
    )
    transaction.set(col.doc('summary'), snapshot.data())
    return snapshot.data()
  })
  expect(seen).toEqual({ total: 3, count: 2 })
  expect((await col.doc('summary').get()).data()).toEqual({ total: 3, count: 2 })
})

test('NaN and ±Infinity computed by the server come back as those numbers, not null', async () => {
  const ref = doc(sdk.lite, 'overflow/a')
  await setDoc(ref, { up: Number.MAX_VALUE, down: -Number.MAX_VALUE })
  await updateDoc(ref, { up: increment(Number.MAX_VALUE), down: increment(-Number.MAX_VALUE) })
  expect((await getDoc(ref)).data()).toEqual({ up: Number.POSITIVE_INFINITY, down: Number.NEGATIVE_INFINITY })
  expect((await sdk.admin.doc('overflow/a').get()).data()).toEqual({
    up: Number.POSITIVE_INFINITY,
    down: Number.NEGATIVE_INFINITY,
  })
  const values = collection(sdk.lite, 'overflow')
  const totals = await getAggregate(values, { up: sum('up'), average: average('up') })
  expect(totals.data()).toEqual({ up: Number.POSITIVE_INFINITY, average: Number.POSITIVE_INFINITY })
  await setDoc(doc(values, 'b'), { up: 1, both: Number.POSITIVE_INFINITY })
  await setDoc(doc(values, 'c'), { up: 1, both: Number.NEGATIVE_INFINITY })
  const mixed = await getAggregate(query(values, where('both', '!=', null)), { both: sum('both') })
  expect(mixed.data().both).toBeNaN()

  // The transform result on the wire, which the SDKs do not expose.
  const root = `projects/${sdk.projectId}/databases/(default)/documents`
  const response = await fetch(`http://${sdk.firestoreHost}/v1/${root}:commit`, {
    method: 'POST',
    body: JSON.stringify({
      writes: [
        {
          update: { name: `${root}/overflow/raw`, fields: { x: { doubleValue: 1.7e308 } } },
          updateTransforms: [{ fieldPath: 'x', increment: { doubleValue: 1.7e308 } }],
        },
      ],
    }),
  })
  const body = (await response.json()) as { writeResults: { transformResults: unknown[] }[] }
  expect(body.writeResults[0]?.transformResults).toEqual([{ doubleValue: 'Infinity' }])
})

/** An admin Timestamp in RFC 3339 with nine fraction digits, as the REST API takes it. */
const rfc3339 = (time: AdminTimestamp) =>
  `${new Date(time.seconds * 1000).toISOString().slice(0, 19)}.${String(time.nanoseconds).padStart(9, '0')}Z`

test('reads at a readTime see the documents as they were then', async () => {
  const col = sdk.admin.collection('history')
  const first = await col.doc('a').set({ v: 1 })
  await col.doc('gone').set({ v: 1 })
  const then = (await col.doc('gone').get()).readTime
  await col.doc('a').set({ v: 2 })
  await col.doc('gone').delete()
  await col.doc('later').set({ v: 1 })

  const atFirst = await sdk.admin.runTransaction(async (transaction) => (await transaction.get(col.doc('a'))).data(), {
    readOnly: true,
    readTime: first.writeTime,
  })
  expect(atFirst).toEqual({ v: 1 })
  const past = await sdk.admin.runTransaction(
    async (transaction) => {
      const [a, gone, later] = await transaction.getAll(col.doc('a'), col.doc('gone'), col.doc('later'))
      const listed = await transaction.get(col.orderBy('v'))
      const counted = await transaction.get(col.count())
      return {
        docs: [a?.data(), gone?.data(), later?.exists],
        ids: listed.docs.map((d) => d.id),
        readTime: listed.readTime,
        count: counted.data().count,
      }
    },
    { readOnly: true, readTime: then },
  )
  expect(past.docs).toEqual([{ v: 1 }, { v: 1 }, false])
  expect(past.ids).toEqual(['a', 'gone'])
  expect(past.readTime.isEqual(then)).toBe(true)
  expect(past.count).toBe(2)
  // The REST GET of a document and of a collection take the readTime as a query parameter.
  const base = `http://${sdk.firestoreHost}/v1/projects/${sdk.projectId}/databases/(default)/documents/history`
  const at = `readTime=${encodeURIComponent(rfc3339(then))}`
  expect(((await (await fetch(`${base}/a?${at}`)).json()) as { fields: unknown }).fields).toEqual({
    v: { integerValue: '1' },
  })
  const listed = (await (await fetch(`${base}?${at}`)).json()) as { documents: { name: string }[] }
  expect(listed.documents.map((d) => d.name.split('/').pop())).toEqual(['a', 'gone'])
  // Without a readTime the same reads see the present.
  expect((await col.get()).docs.map((d) => [d.id, d.data().v])).toEqual([
    ['a', 2],
    ['later', 1],
  ])
})

test('a readTime older than an hour or in the future is refused', async () => {
  const ref = sdk.admin.doc('history/b')
  const written = await ref.set({ v: 1 })
  const readAt = (readTime: AdminTimestamp) =>
    sdk.admin.runTransaction(async (transaction) => (await transaction.get(ref)).data(), { readOnly: true, readTime })
  await expect(readAt(AdminTimestamp.fromMillis(Date.now() - 2 * 3600_000))).rejects.toMatchObject({
    message: expect.stringContaining('too old'),
  })
  await expect(readAt(AdminTimestamp.fromMillis(Date.now() + 3600_000))).rejects.toMatchObject({
    message: expect.stringContaining('future'),
  })
  expect(await readAt(written.writeTime)).toEqual({ v: 1 })
})

test('versions older than the read window are pruned, so the history does not grow without bound', () => {
  const store = new Store({ inMemory: true })
  try {
    const version = (updateTime: bigint, v: string) => ({
      path: 'c/a',
      fields: { v: { stringValue: v } },
      createTime: 1n,
      updateTime,
    })
    const start = BigInt(Date.now()) * 1_000_000n
    store.putDocument('p', 'd', version(start, 'one'), '', 'c')
    store.putDocument('p', 'd', version(start + 1000n, 'two'), '', 'c')
    store.deleteDocument('p', 'd', 'c/a', start + 2000n)
    expect(store.getDocumentAt('p', 'd', 'c/a', start)?.fields).toEqual({ v: { stringValue: 'one' } })
    expect(
      store.listDocumentsAt('p', 'd', { parent: '', collectionId: 'c', allDescendants: false }, start + 1000n),
    ).toHaveLength(1)
    const rows = () => (store.db.prepare('SELECT count(*) AS n FROM document_history').get() as { n: number }).n
    expect(rows()).toBe(2)
    store.pruneHistory(start + HISTORY_WINDOW_NANOS + 1000n)
    expect(rows()).toBe(1)
    store.pruneHistory(start + HISTORY_WINDOW_NANOS + 2000n)
    expect(rows()).toBe(0)
  } finally {
    store.close()
  }
})

test('implicit orders take the direction of the last explicit order, so pages agree with the whole', async () => {
  const col = sdk.admin.collection('implicit')
  for (const [id, a] of [
    ['p', 1],
    ['q', 2],
    ['r', 3],
    ['s', 2],
  ] as const) {
    await col.doc(id).set({ a, b: 1 })
  }
  const ordered = col.where('a', '>', 0).orderBy('b', 'desc')
  const all = (await ordered.get()).docs.map((d) => d.id)
  expect(all).toEqual(['r', 's', 'q', 'p'])
  const firstPage = (await ordered.limit(2).get()).docs
  const secondPage = (await ordered.startAfter(firstPage[1]).limit(2).get()).docs
  expect([...firstPage, ...secondPage].map((d) => d.id)).toEqual(all)
})

test('a delete in a batchWrite reports no update time', async () => {
  const ref = sdk.admin.doc('bulk/a')
  await ref.set({ v: 1 })
  const writer = sdk.admin.bulkWriter()
  const deleted = writer.delete(ref)
  const written = writer.set(sdk.admin.doc('bulk/b'), { v: 2 })
  await writer.close()
  // firebase-admin turns a missing updateTime into its "deleted" sentinel, the epoch.
  expect((await deleted).writeTime.isEqual(AdminTimestamp.fromMillis(0))).toBe(true)
  expect((await written).writeTime.toMillis()).toBeGreaterThan(0)
  expect((await ref.get()).exists).toBe(false)
})

test('vector search and query explain answer UNIMPLEMENTED instead of being ignored', async () => {
  const col = sdk.admin.collection('vectors')
  await col.doc('a').set({ embedding: FieldValue.vector([1, 2]) })
  const nearest = col.findNearest({
    vectorField: 'embedding',
    queryVector: [1, 2],
    limit: 1,
    distanceMeasure: 'EUCLIDEAN',
  })
  await expect(nearest.get()).rejects.toMatchObject({ code: 12 })
  await expect(col.where('x', '==', 1).explain({ analyze: true })).rejects.toMatchObject({ code: 12 })
  await expect(col.count().explain()).rejects.toMatchObject({ code: 12 })
})
