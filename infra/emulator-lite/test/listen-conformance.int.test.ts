import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@bosted/stack/ports'
import { deleteApp, type FirebaseApp } from 'firebase/app'
import {
  collection,
  connectFirestoreEmulator,
  type DocumentChangeType,
  doc,
  type Firestore,
  initializeFirestore,
  limit,
  onSnapshot,
  orderBy,
  type Query,
  type QuerySnapshot,
  query,
  terminate,
  where,
} from 'firebase/firestore'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ServiceAccountKey } from '../src/auth/keys.ts'
import { startCliProcess } from './cli-process.ts'
import { idTokenFor, signedInApp } from './signed-in.ts'

// Listener conformance (issue 35): what the full SDK (gRPC under Node) sees as docChanges for each kind
// of change, a burst seen in order with no gap, resume after kill -9 of emulator-lite, and a target
// denied then allowed after the rules change. emulator-lite runs as its own process on a data
// directory (so it can be killed); the listener is a signed-in client under the rules; the other
// client's writes are REST commits with its own ID token. No timing is asserted: waits are generous.
const PROJECT = 'demo-listen-conformance'
const DATABASE = `projects/${PROJECT}/databases/(default)`
const rulesFor = (persons: string[]) => `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /persons/{personId}/{rest=**} {
      allow read, write: if request.auth != null && personId in ${JSON.stringify(persons)};
    }
  }
}`
const WAIT = { timeout: 30_000, interval: 20 }

let dir: string
let ports: { firestore: number; storage: number; admin: number; auth: number }
let child: ChildProcess
let app: FirebaseApp
let db: Firestore
let writer: string

async function start() {
  child = (
    await startCliProcess([
      '--firestore-port',
      String(ports.firestore),
      '--storage-port',
      String(ports.storage),
      '--admin-port',
      String(ports.admin),
      '--auth-port',
      String(ports.auth),
      '--project',
      PROJECT,
      '--data',
      join(dir, 'data'),
      '--firestore-rules',
      join(dir, 'firestore.rules'),
    ])
  ).child
}

const serviceAccount = () =>
  JSON.parse(readFileSync(join(dir, 'data', 'service-account.json'), 'utf8')) as ServiceAccountKey

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-lite-listen-conformance-'))
  writeFileSync(join(dir, 'firestore.rules'), rulesFor(['p1']))
  ports = { firestore: await freePort(), storage: await freePort(), admin: await freePort(), auth: await freePort() }
  await start()
  writer = await idTokenFor(ports.auth, serviceAccount(), 'colleague')
  app = await signedInApp(ports.auth, serviceAccount(), PROJECT, 'listen-conformance')
  db = initializeFirestore(app, {})
  connectFirestoreEmulator(db, '127.0.0.1', ports.firestore)
}, 60_000)

afterAll(async () => {
  if (db) await terminate(db)
  if (app) await deleteApp(app)
  child?.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

type Fields = Record<string, string | number>
const encode = (fields: Fields) =>
  Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      key,
      typeof value === 'number' ? { integerValue: String(value) } : { stringValue: value },
    ]),
  )
type Write = { set: string; fields: Fields } | { delete: string }

/** The other client's commit (one atomic batch), through REST with its own ID token. */
async function commit(writes: Write[]): Promise<void> {
  const body = {
    writes: writes.map((write) =>
      'set' in write
        ? { update: { name: `${DATABASE}/documents/${write.set}`, fields: encode(write.fields) } }
        : { delete: `${DATABASE}/documents/${write.delete}` },
    ),
  }
  const response = await fetch(`http://127.0.0.1:${ports.firestore}/v1/${DATABASE}/documents:commit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status, await response.text()).toBe(200)
}

type Change = { type: DocumentChangeType; id: string; oldIndex: number; newIndex: number }
/** A listener that records each server snapshot (not from cache, no pending writes) and its docChanges. */
function listen(target: Query) {
  const snapshots: { ids: string[]; changes: Change[]; snapshot: QuerySnapshot }[] = []
  const errors: { code: string }[] = []
  const unsubscribe = onSnapshot(
    target,
    (snapshot) => {
      snapshots.push({
        ids: snapshot.docs.map((each) => each.id),
        changes: snapshot.docChanges().map((change) => ({
          type: change.type,
          id: change.doc.id,
          oldIndex: change.oldIndex,
          newIndex: change.newIndex,
        })),
        snapshot,
      })
    },
    (error) => errors.push(error as unknown as { code: string }),
  )
  return { snapshots, errors, unsubscribe }
}

describe('docChanges per kind of change (full SDK over gRPC)', () => {
  test('added: a document that starts to match', async () => {
    await commit([{ set: 'persons/p1/added/a', fields: { status: 'open', text: 'a' } }])
    const listener = listen(query(collection(db, 'persons/p1/added'), where('status', '==', 'open')))
    await expect.poll(() => listener.snapshots.length, WAIT).toBe(1)
    expect(listener.snapshots[0]?.changes).toEqual([{ type: 'added', id: 'a', oldIndex: -1, newIndex: 0 }])
    await commit([{ set: 'persons/p1/added/b', fields: { status: 'open', text: 'b' } }])
    await expect.poll(() => listener.snapshots.length, WAIT).toBe(2)
    expect(listener.snapshots[1]?.changes).toEqual([{ type: 'added', id: 'b', oldIndex: -1, newIndex: 1 }])
    expect(listener.snapshots[1]?.ids).toEqual(['a', 'b'])
    listener.unsubscribe()
    expect(listener.errors).toEqual([])
  })

  test('modified: a matching document whose other field changes', async () => {
    await commit([{ set: 'persons/p1/modified/a', fields: { status: 'open', text: 'før' } }])
    const listener = listen(query(collection(db, 'persons/p1/modified'), where('status', '==', 'open')))
    await expect.poll(() => listener.snapshots.length, WAIT).toBe(1)
    await commit([{ set: 'persons/p1/modified/a', fields: { status: 'open', text: 'efter' } }])
    await expect.poll(() => listener.snapshots.length, WAIT).toBe(2)
    expect(listener.snapshots[1]?.changes).toEqual([{ type: 'modified', id: 'a', oldIndex: 0, newIndex: 0 }])
    expect(listener.snapshots[1]?.snapshot.docs[0]?.get('text')).toBe('efter')
    listener.unsubscribe()
    expect(listener.errors).toEqual([])
  })

  test('removed by a field change: a document that stops matching, though it still exists', async () => {
    await commit([
      { set: 'persons/p1/unmatched/a', fields: { status: 'open' } },
      { set: 'persons/p1/unmatched/b', fields: { status: 'open' } },
    ])
    const listener = listen(query(collection(db, 'persons/p1/unmatched'), where('status', '==', 'open')))
    await expect.poll(() => listener.snapshots.length, WAIT).toBe(1)
    await commit([{ set: 'persons/p1/unmatched/a', fields: { status: 'closed' } }])
    await expect.poll(() => listener.snapshots.length, WAIT).toBe(2)
    expect(listener.snapshots[1]?.changes).toEqual([{ type: 'removed', id: 'a', oldIndex: 0, newIndex: -1 }])
    expect(listener.snapshots[1]?.ids).toEqual(['b'])
    listener.unsubscribe()
    expect(listener.errors).toEqual([])
  })

  test('deleted: a matching document deleted', async () => {
    await commit([
      { set: 'persons/p1/deleted/a', fields: { status: 'open' } },
      { set: 'persons/p1/deleted/b', fields: { status: 'open' } },
    ])
    const listener = listen(query(collection(db, 'persons/p1/deleted'), where('status', '==', 'open')))
    const single: boolean[] = []
    const unsubscribeDoc = onSnapshot(doc(db, 'persons/p1/deleted/b'), (snapshot) => single.push(snapshot.exists()))
    await expect.poll(() => listener.snapshots.length, WAIT).toBe(1)
    await expect.poll(() => single, WAIT).toEqual([true])
    await commit([{ delete: 'persons/p1/deleted/b' }])
    await expect.poll(() => listener.snapshots.length, WAIT).toBe(2)
    expect(listener.snapshots[1]?.changes).toEqual([{ type: 'removed', id: 'b', oldIndex: 1, newIndex: -1 }])
    expect(listener.snapshots[1]?.ids).toEqual(['a'])
    // The document listener is told the document no longer exists.
    await expect.poll(() => single, WAIT).toEqual([true, false])
    unsubscribeDoc()
    listener.unsubscribe()
    expect(listener.errors).toEqual([])
  })

  test('pushed out of a limit: a document that sorts before the rest takes the last place', async () => {
    await commit([
      { set: 'persons/p1/limited/b', fields: { rank: 2 } },
      { set: 'persons/p1/limited/c', fields: { rank: 3 } },
      { set: 'persons/p1/limited/d', fields: { rank: 4 } },
    ])
    const listener = listen(query(collection(db, 'persons/p1/limited'), orderBy('rank'), limit(2)))
    await expect.poll(() => listener.snapshots.length, WAIT).toBe(1)
    expect(listener.snapshots[0]?.ids).toEqual(['b', 'c'])
    await commit([{ set: 'persons/p1/limited/a', fields: { rank: 1 } }])
    await expect.poll(() => listener.snapshots.length, WAIT).toBe(2)
    expect(listener.snapshots[1]?.ids).toEqual(['a', 'b'])
    expect(listener.snapshots[1]?.changes).toEqual([
      { type: 'removed', id: 'c', oldIndex: 1, newIndex: -1 },
      { type: 'added', id: 'a', oldIndex: -1, newIndex: 0 },
    ])
    // And back in when the newcomer leaves: d stays out, c returns.
    await commit([{ delete: 'persons/p1/limited/a' }])
    await expect.poll(() => listener.snapshots.length, WAIT).toBe(3)
    expect(listener.snapshots[2]?.ids).toEqual(['b', 'c'])
    listener.unsubscribe()
    expect(listener.errors).toEqual([])
  })
})

test('a burst of 10,000 writes is seen by one listener in order with no gap', async () => {
  // 100 commits of 100 new documents each (seq 0…9,999) plus a counter document set to the number
  // written so far, in the same commit. Every snapshot must be a committed state: the counter equals
  // the number of documents, it never goes back, and the documents are exactly seq 0…counter-1.
  const listener = listen(collection(db, 'persons/p1/burst'))
  await expect.poll(() => listener.snapshots.length, WAIT).toBe(1)
  const batches = 100
  const size = 100
  for (let b = 0; b < batches; b++) {
    const writes: Write[] = []
    for (let i = 0; i < size; i++) {
      const seq = b * size + i
      writes.push({ set: `persons/p1/burst/n${String(seq).padStart(5, '0')}`, fields: { seq } })
    }
    writes.push({ set: 'persons/p1/burst/counter', fields: { seq: -1, count: (b + 1) * size } })
    await commit(writes)
  }
  const last = () =>
    listener.snapshots
      .at(-1)
      ?.snapshot.docs.find((each) => each.id === 'counter')
      ?.get('count')
  await expect.poll(last, { ...WAIT, timeout: 60_000 }).toBe(batches * size)
  let previous = 0
  for (const { snapshot } of listener.snapshots.slice(1)) {
    const seqs = snapshot.docs.filter((each) => each.id !== 'counter').map((each) => each.get('seq') as number)
    const count = (snapshot.docs.find((each) => each.id === 'counter')?.get('count') as number | undefined) ?? 0
    expect(count).toBeGreaterThanOrEqual(previous)
    previous = count
    expect(seqs.length).toBe(count)
    // Ordered by name, which is seq zero-padded: no gap means seq i at index i.
    expect(seqs.every((seq, index) => seq === index)).toBe(true)
  }
  expect(listener.snapshots.at(-1)?.snapshot.size).toBe(batches * size + 1)
  listener.unsubscribe()
  expect(listener.errors).toEqual([])
}, 120_000)

test('a target denied, then allowed after the rules change; an allowed one is cut when new rules deny it', async () => {
  const owner = { authorization: 'Bearer owner', 'content-type': 'application/json' }
  const putRules = async (persons: string[]) => {
    const response = await fetch(`http://127.0.0.1:${ports.admin}/emulator/v1/projects/${PROJECT}:securityRules`, {
      method: 'PUT',
      headers: owner,
      body: JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content: rulesFor(persons) }] } }),
    })
    expect(response.status, await response.text()).toBe(200)
  }
  const seed = await fetch(`http://127.0.0.1:${ports.admin}/v1/${DATABASE}/documents:commit`, {
    method: 'POST',
    headers: owner,
    body: JSON.stringify({
      writes: [{ update: { name: `${DATABASE}/documents/persons/p2/notes/a`, fields: encode({ text: 'p2' }) } }],
    }),
  })
  expect(seed.status).toBe(200)
  const denied = listen(collection(db, 'persons/p2/notes'))
  await expect.poll(() => denied.errors.map((error) => error.code), WAIT).toEqual(['permission-denied'])
  expect(denied.snapshots).toEqual([])

  await putRules(['p1', 'p2'])
  // A denied target was removed (as in production); the SDK listens again with a new target.
  const allowed = listen(collection(db, 'persons/p2/notes'))
  await expect.poll(() => allowed.snapshots.at(-1)?.ids, WAIT).toEqual(['a'])

  // The other way: rules that deny an active target. Replacing the rules re-checks the open targets,
  // so the listener is cut without waiting for a commit.
  await putRules(['p1'])
  await expect.poll(() => allowed.errors.map((error) => error.code), WAIT).toEqual(['permission-denied'])
}, 90_000)

test('after kill -9 of emulator-lite the SDK reconnects and its listener sees a write made after the restart', async () => {
  await commit([{ set: 'persons/p1/resume/a', fields: { text: 'før' } }])
  const listener = listen(collection(db, 'persons/p1/resume'))
  await expect
    .poll(() => listener.snapshots.at(-1)?.snapshot.docs.map((each) => each.get('text')), WAIT)
    .toEqual(['før'])
  child.kill('SIGKILL')
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit')
  await start()
  await commit([{ set: 'persons/p1/resume/b', fields: { text: 'efter' } }])
  // The SDK's reconnect backoff (up to a minute) decides when; the resume must come.
  await expect
    .poll(() => listener.snapshots.at(-1)?.snapshot.docs.map((each) => each.get('text')), {
      timeout: 60_000,
      interval: 50,
    })
    .toEqual(['før', 'efter'])
  listener.unsubscribe()
  expect(listener.errors).toEqual([])
}, 90_000)
