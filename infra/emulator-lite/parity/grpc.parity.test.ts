import { randomUUID } from 'node:crypto'
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { FieldValue, type Firestore, getFirestore } from 'firebase-admin/firestore'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { EmulatorLite } from '../src/index.ts'
import { signUnsigned } from '../test/forged-token.ts'
import { call } from '../test/grpc-client.ts'
import { openStream, type StreamEvent } from '../test/grpc-stream.ts'
import { startBoth } from './both-emulators.ts'
import type { OfficialFirestore } from './official-emulator.ts'

// The same gRPC sequences (firebase-admin without preferRest, and a plain gRPC client with a
// client's token under rules) against emulator-lite and Google's emulator: the answers must match.
const PROJECT = 'demo-grpc-parity'
const DATABASE = `projects/${PROJECT}/databases/(default)`
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /persons/{personId}/{rest=**} { allow read: if request.auth != null && personId == 'p1'; }
  }
}`

let closeBoth: (() => Promise<void>) | undefined
let official: OfficialFirestore
let lite: EmulatorLite
const apps: App[] = []

function adminAt(host: string): Firestore {
  process.env.FIRESTORE_EMULATOR_HOST = host
  const app = initializeApp({ projectId: PROJECT }, `grpc-parity-${randomUUID()}`)
  apps.push(app)
  return getFirestore(app)
}

beforeAll(async () => {
  ;({ official, lite, close: closeBoth } = await startBoth('grpc-parity', RULES))
}, 180_000)

afterAll(async () => {
  await Promise.allSettled(apps.map((app) => deleteApp(app)))
  await closeBoth?.()
})

/** Everything the sequence observed, as plain data. */
async function sequence(adminHost: string, clientHost: string) {
  const db = adminAt(adminHost)
  const seen: Record<string, unknown> = {}
  await db.doc('persons/p1/notes/a').set({ day: 1, text: 'tirsdag', at: new Date('2026-01-02T03:04:05Z') })
  await db.doc('persons/p1/notes/b').set({ day: 2, tags: ['x'] })
  await db.doc('persons/p2/notes/a').set({ day: 3 })
  seen.get = (await db.doc('persons/p1/notes/a').get()).data()
  seen.missing = (await db.doc('persons/p1/notes/none').get()).exists
  seen.query = (await db.collection('persons/p1/notes').where('day', '>=', 2).get()).docs.map((doc) => doc.id)
  seen.group = (await db.collectionGroup('notes').orderBy('day', 'desc').limit(2).get()).docs.map((doc) => doc.ref.path)
  seen.getAll = (await db.getAll(db.doc('persons/p1/notes/a'), db.doc('persons/p9/notes/z'))).map((doc) => doc.exists)
  seen.count = (await db.collection('persons/p1/notes').count().get()).data().count
  seen.transaction = await db.runTransaction(async (tx) => {
    const doc = await tx.get(db.doc('persons/p1/notes/a'))
    tx.update(doc.ref, { day: doc.get('day') + 10 })
    return doc.get('day') + 10
  })
  seen.listDocuments = (await db.collection('persons/p1/notes').listDocuments()).map((ref) => ref.id).sort()
  seen.listCollections = (await db.doc('persons/p1').listCollections()).map((ref) => ref.id)
  const snapshots: string[][] = []
  const unsubscribe = db
    .collection('persons/p1/notes')
    .orderBy('day')
    .onSnapshot((snapshot) => {
      snapshots.push(snapshot.docs.map((doc) => doc.id))
    })
  await expect.poll(() => snapshots.length, { timeout: 20_000 }).toBe(1)
  await db.doc('persons/p1/notes/c').set({ day: 0 })
  await expect.poll(() => snapshots.length, { timeout: 20_000 }).toBe(2)
  await db.doc('persons/p1/notes/b').delete()
  await expect.poll(() => snapshots.length, { timeout: 20_000 }).toBe(3)
  unsubscribe()
  seen.snapshots = snapshots
  const token = `Bearer ${signUnsigned({ sub: 'emp', user_id: 'emp', aud: PROJECT, iss: `https://securetoken.google.com/${PROJECT}`, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600, firebase: { sign_in_provider: 'custom' } })}`
  const get = (path: string) => call(clientHost, 'GetDocument', { name: `${DATABASE}/documents/${path}` }, token)
  const query = (parent: string) =>
    call(
      clientHost,
      'RunQuery',
      { parent: `${DATABASE}/documents/${parent}`, structuredQuery: { from: [{ collectionId: 'notes' }] } },
      token,
    )
  const allowed = await get('persons/p1/notes/a')
  seen.clientGet = [allowed.code, (allowed.messages[0]?.fields as Record<string, unknown> | undefined)?.text]
  seen.clientDenied = (await get('persons/p2/notes/a')).code
  seen.clientQuery = (await query('persons/p1')).messages.map((m) =>
    (m.document as { name?: string } | undefined)?.name?.split('/').pop(),
  )
  seen.clientQueryDenied = (await query('persons/p2')).code
  return seen
}

test('firebase-admin over gRPC and a client under rules see the same from both emulators', async () => {
  const fromLite = await sequence(`127.0.0.1:${lite.adminPort}`, `127.0.0.1:${lite.firestorePort}`)
  const fromOfficial = await sequence(official.host, official.host)
  expect(fromLite).toEqual(fromOfficial)
  expect(fromLite.snapshots).toEqual([
    ['b', 'a'],
    ['c', 'b', 'a'],
    ['c', 'a'],
  ])
}, 240_000)

/**
 * A query target opened, a document deleted, then the target resumed on a new stream with its token
 * and a client's expected count that no longer holds: what kinds of message each emulator sends, in
 * order (document changes by id). Neither sends an existence filter: the resumed target is reset and
 * sent whole, so the client's count is right without one.
 */
async function resumeSequence(host: string): Promise<string[]> {
  const db = adminAt(host)
  const collectionId = `resume-${randomUUID().slice(0, 8)}`
  await db.doc(`${collectionId}/a`).set({ n: 1 })
  await db.doc(`${collectionId}/b`).set({ n: 1 })
  const target = { parent: `${DATABASE}/documents`, structuredQuery: { from: [{ collectionId }] } }
  const kinds = (messages: StreamEvent[]) =>
    messages.map((event) => {
      if (!('message' in event)) return `status ${event.code}`
      const { targetChange, documentChange, filter } = event.message as {
        targetChange?: { targetChangeType?: string; targetIds?: number[] }
        documentChange?: { document?: { name?: string } }
        filter?: unknown
      }
      if (filter !== undefined) return 'filter'
      if (documentChange !== undefined) return `change ${documentChange.document?.name?.split('/').pop()}`
      return targetChange?.targetIds?.length ? String(targetChange.targetChangeType) : 'global'
    })
  const until = async (stream: ReturnType<typeof openStream>, count: number) => {
    const messages: StreamEvent[] = []
    while (messages.length < count) messages.push(await stream.next())
    return messages
  }
  const first = openStream(host, 'Listen', 'Bearer owner', DATABASE)
  first.send({ database: DATABASE, addTarget: { targetId: 2, query: target } })
  const opened = await until(first, 5)
  first.cancel()
  const current = opened.find(
    (event) =>
      'message' in event &&
      (event.message.targetChange as { targetChangeType?: string } | undefined)?.targetChangeType === 'CURRENT',
  )
  const resumeToken =
    current && 'message' in current ? (current.message.targetChange as { resumeToken?: string }).resumeToken : undefined
  await db.doc(`${collectionId}/a`).delete()
  const second = openStream(host, 'Listen', 'Bearer owner', DATABASE)
  second.send({ database: DATABASE, addTarget: { targetId: 2, query: target, resumeToken, expectedCount: 2 } })
  const resumed = await until(second, 5)
  // Whatever else would come (a late filter) within a second.
  const late = await Promise.race([
    second.next(),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 1_000)),
  ])
  second.cancel()
  return [...kinds(opened), '|', ...kinds(resumed), ...(late === null ? [] : kinds([late]))]
}

test('a resumed Listen target is reset and sent whole, with no existence filter, from both emulators', async () => {
  const fromLite = await resumeSequence(`127.0.0.1:${lite.adminPort}`)
  const fromOfficial = await resumeSequence(official.host)
  expect(fromLite).toEqual(fromOfficial)
  expect(fromLite).toEqual([
    'ADD',
    'change a',
    'change b',
    'CURRENT',
    'global',
    '|',
    'ADD',
    'RESET',
    'change b',
    'CURRENT',
    'global',
  ])
}, 120_000)

/** One value of each kind near vectors, written in a shuffled order, read back ordered by that field. */
async function vectorOrder(host: string): Promise<string[]> {
  const db = adminAt(host)
  const collection = db.collection(`vectors-${randomUUID().slice(0, 8)}`)
  const values: [string, unknown][] = [
    ['array 6', [1, 2, 3, 4, 5, 6]],
    ['array 1', [100]],
    ['vector -inf', FieldValue.vector([Number.NEGATIVE_INFINITY])],
    ['vector -100', FieldValue.vector([-100])],
    ['vector 100', FieldValue.vector([100])],
    ['vector +inf', FieldValue.vector([Number.POSITIVE_INFINITY])],
    ['vector 1 2', FieldValue.vector([1, 2])],
    ['vector 2 2', FieldValue.vector([2, 2])],
    ['vector 1 2 3', FieldValue.vector([1, 2, 3])],
    ['vector 1 2 100 4 4', FieldValue.vector([1, 2, 100, 4, 4])],
    ['vector 100 2 3 4 5', FieldValue.vector([100, 2, 3, 4, 5])],
    ['map HELLO', { HELLO: 'WORLD' }],
    ['map hello', { hello: 'world' }],
  ]
  for (const [index, [name, embedding]] of [...values].reverse().entries())
    await collection.doc(String(index).padStart(2, '0')).set({ name, embedding })
  return (await collection.orderBy('embedding').get()).docs.map((doc) => doc.get('name'))
}

test('vectors order by dimension, then element by element, between arrays and maps, in both emulators', async () => {
  const fromLite = await vectorOrder(`127.0.0.1:${lite.adminPort}`)
  expect(fromLite).toEqual(await vectorOrder(official.host))
  expect(fromLite.slice(2, 7)).toEqual(['vector -inf', 'vector -100', 'vector 100', 'vector +inf', 'vector 1 2'])
}, 120_000)

/** A Listen target under a reserved id, then a good one on the same stream: what each emulator sends. */
async function badTargetSequence(host: string): Promise<unknown[]> {
  const stream = openStream(host, 'Listen', 'Bearer owner', DATABASE)
  const query = (parent: string) => ({ parent, structuredQuery: { from: [{ collectionId: 'b' }] } })
  stream.send({ database: DATABASE, addTarget: { targetId: 2, query: query(`${DATABASE}/documents/a/__badpath__`) } })
  stream.send({ database: DATABASE, addTarget: { targetId: 4, query: query(`${DATABASE}/documents/a/empty`) } })
  const seen: unknown[] = []
  while (seen.length < 5) {
    const event = await stream.next()
    if (!('message' in event)) {
      seen.push(`status ${event.code}`)
      break
    }
    const change = event.message.targetChange as
      | { targetChangeType?: string; targetIds?: number[]; cause?: { code?: number; message?: string } }
      | undefined
    seen.push(
      change?.targetIds?.length ? [change.targetChangeType, ...change.targetIds, change.cause ?? null] : 'global',
    )
  }
  stream.cancel()
  return seen
}

test('a Listen target under a reserved id is removed with its cause and the stream goes on, in both emulators', async () => {
  const fromLite = await badTargetSequence(`127.0.0.1:${lite.adminPort}`)
  expect(fromLite).toEqual(await badTargetSequence(official.host))
  expect(fromLite[1]).toEqual([
    'REMOVE',
    2,
    { code: 3, message: 'Resource id "__badpath__" is invalid because it is reserved.' },
  ])
}, 60_000)

/** Filters with a null operand (as only a hand-made request sends them) over a few arrays and a null. */
async function nullOperands(host: string): Promise<Record<string, unknown>> {
  const db = adminAt(host)
  const collectionId = `nulls-${randomUUID().slice(0, 8)}`
  await db.doc(`${collectionId}/e`).set({ a: [43] })
  await db.doc(`${collectionId}/h`).set({ a: [null] })
  await db.doc(`${collectionId}/n`).set({ a: [1, null] })
  await db.doc(`${collectionId}/z`).set({ a: null })
  const none = { nullValue: null }
  const filters: Record<string, unknown> = {
    equal: { fieldFilter: { field: { fieldPath: 'a' }, op: 'EQUAL', value: none } },
    notEqual: { fieldFilter: { field: { fieldPath: 'a' }, op: 'NOT_EQUAL', value: none } },
    atLeast: { fieldFilter: { field: { fieldPath: 'a' }, op: 'GREATER_THAN_OR_EQUAL', value: none } },
    contains: { fieldFilter: { field: { fieldPath: 'a' }, op: 'ARRAY_CONTAINS', value: none } },
    containsAny: {
      fieldFilter: {
        field: { fieldPath: 'a' },
        op: 'ARRAY_CONTAINS_ANY',
        value: { arrayValue: { values: [{ integerValue: '43' }, none] } },
      },
    },
    isNull: { unaryFilter: { field: { fieldPath: 'a' }, op: 'IS_NULL' } },
  }
  const seen: Record<string, unknown> = {}
  for (const [name, where] of Object.entries(filters)) {
    const reply = await call(
      host,
      'RunQuery',
      { parent: `${DATABASE}/documents`, structuredQuery: { from: [{ collectionId }], where } },
      'Bearer owner',
    )
    seen[name] = [
      reply.code,
      reply.messages.flatMap((m) => {
        const name = (m.document as { name?: string } | undefined)?.name
        return name ? [name.split('/').pop()] : []
      }),
    ]
  }
  return seen
}

test('a null operand compares with nothing, and a null in array-contains-any is skipped, in both emulators', async () => {
  const fromLite = await nullOperands(`127.0.0.1:${lite.adminPort}`)
  expect(fromLite).toEqual(await nullOperands(official.host))
  expect(fromLite.containsAny).toEqual([0, ['e']])
}, 60_000)

/** Whether writes that leave a document as it was move its version (they must not), and ones that change it do. */
async function versions(host: string): Promise<Record<string, boolean>> {
  const db = adminAt(host)
  const ref = db.doc(`versions-${randomUUID().slice(0, 8)}/a`)
  const first = await ref.set({ count: 1234, tags: ['x'], at: { nested: true } })
  const stored = (await ref.get()).updateTime
  const same = await ref.set({ at: { nested: true }, tags: ['x'], count: 1234 })
  const merged = await ref.set({ count: 1234 }, { merge: true })
  const unchanged = (await ref.get()).updateTime
  const changed = await ref.set({ count: 1234.5, tags: ['x'], at: { nested: true } })
  return {
    sameWriteKeepsVersion: same.writeTime.isEqual(first.writeTime),
    mergeKeepsVersion: merged.writeTime.isEqual(first.writeTime),
    documentKeepsVersion: unchanged?.isEqual(stored as never) === true,
    changeMovesVersion: !changed.writeTime.isEqual(first.writeTime),
  }
}

test('a write that leaves a document as it was keeps its version, in both emulators', async () => {
  const fromLite = await versions(`127.0.0.1:${lite.adminPort}`)
  expect(fromLite).toEqual(await versions(official.host))
  expect(Object.values(fromLite).every(Boolean)).toBe(true)
}, 60_000)

// Two query targets on one Listen stream that both match a new document: after the write, each target
// gets its change and CURRENT, and one global snapshot follows them all, from both emulators. A global
// snapshot between the targets would raise the SDK's snapshot while the document had reached only the
// first (the second's view then comes from the cache: ADR 0029, ADR 0032).
async function overlappingTargets(host: string): Promise<string[]> {
  const db = adminAt(host)
  const collectionId = `overlap-${randomUUID().slice(0, 8)}`
  const q = (from: number) => ({
    parent: `${DATABASE}/documents`,
    structuredQuery: {
      from: [{ collectionId }],
      where: {
        fieldFilter: {
          field: { fieldPath: 'day' },
          op: 'GREATER_THAN_OR_EQUAL',
          value: { integerValue: String(from) },
        },
      },
    },
  })
  const stream = openStream(host, 'Listen', 'Bearer owner', DATABASE)
  stream.send({ database: DATABASE, addTarget: { targetId: 2, query: q(1) } })
  stream.send({ database: DATABASE, addTarget: { targetId: 4, query: q(5) } })
  const kinds: string[] = []
  const kind = (event: StreamEvent) => {
    if (!('message' in event)) return `status ${event.code}`
    const { targetChange, documentChange } = event.message as {
      targetChange?: { targetChangeType?: string; targetIds?: number[] }
      documentChange?: { document?: { name?: string }; targetIds?: number[] }
    }
    if (documentChange !== undefined)
      return `change ${documentChange.document?.name?.split('/').pop()} [${documentChange.targetIds?.join(',')}]`
    return targetChange?.targetIds?.length
      ? `${targetChange.targetChangeType} [${targetChange.targetIds.join(',')}]`
      : 'global'
  }
  let pending = stream.next()
  const drain = async (ms: number) => {
    for (;;) {
      const next = await Promise.race([pending, new Promise<null>((r) => setTimeout(() => r(null), ms))])
      if (next === null) return
      pending = stream.next()
      kinds.push(kind(next))
    }
  }
  await drain(1_500)
  kinds.push('| write')
  await db.doc(`${collectionId}/x`).set({ day: 7 })
  await drain(1_500)
  stream.cancel()
  return kinds
}

/** What follows the write, without the official emulator's RESETs (it re-sends a target whole; emulator-lite sends the difference). */
const afterWrite = (kinds: string[]) =>
  kinds.slice(kinds.indexOf('| write') + 1).filter((kind) => !kind.startsWith('RESET'))

test('two overlapping targets get a write each, then one global snapshot, from both emulators', async () => {
  const fromLite = afterWrite(await overlappingTargets(`127.0.0.1:${lite.adminPort}`))
  const fromOfficial = afterWrite(await overlappingTargets(official.host))
  for (const kinds of [fromLite, fromOfficial]) {
    expect(kinds.filter((kind) => kind === 'global')).toEqual(['global'])
    expect(kinds.at(-1)).toBe('global')
  }
  // The targets' order is each emulator's own.
  expect([...fromLite].sort()).toEqual([...fromOfficial].sort())
  expect([...fromLite].sort()).toEqual(['CURRENT [2]', 'CURRENT [4]', 'change x [2]', 'change x [4]', 'global'])
}, 120_000)
