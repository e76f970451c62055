import * as grpc from '@grpc/grpc-js'
import { deleteApp as deleteWebApp, type FirebaseApp } from 'firebase/app'
import {
  collection,
  connectFirestoreEmulator,
  doc,
  getDoc,
  initializeFirestore,
  onSnapshot,
  runTransaction,
  terminate,
} from 'firebase/firestore'
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { FieldValue, type Firestore, getFirestore } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { EmulatorLite } from '../src/index.ts'
import { signUnsigned } from './forged-token.ts'
import { call } from './grpc-client.ts'
import { idTokenFor, signedInApp, startWithRules } from './signed-in.ts'

// Firestore's gRPC API (ADR 0029): firebase-admin's default transport, and a plain gRPC client with
// a client's ID token, against the same port as REST, with the same identity, rules and Adgangslog.
const PROJECT = 'demo-grpc'
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /persons/{personId}/{rest=**} { allow read, write: if request.auth != null && personId == 'p1'; }
  }
}`
const DATABASE = `projects/${PROJECT}/databases/(default)`
const OWNER = { authorization: 'Bearer owner' }

let closeEmulator: (() => Promise<void>) | undefined
let emulator: EmulatorLite
const apps: App[] = []

function adminFirestore(port: number): Firestore {
  process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`
  const app = initializeApp({ projectId: PROJECT }, `grpc-${apps.length}`)
  apps.push(app)
  // No preferRest: firebase-admin's default transport is gRPC.
  return getFirestore(app)
}

async function idToken(uid: string): Promise<string> {
  return `Bearer ${await idTokenFor(emulator.authPort, emulator.serviceAccount, uid)}`
}

async function accessLog(personId: string) {
  const response = await fetch(
    `http://127.0.0.1:${emulator.adminPort}/emulator/v1/projects/${PROJECT}/accessLog?personId=${personId}`,
    { headers: OWNER },
  )
  expect(response.status).toBe(200)
  return (
    (await response.json()) as {
      entries: { labels: Record<string, string>; protoPayload: { methodName: string } }[]
    }
  ).entries
}

beforeAll(async () => {
  ;({ emulator, close: closeEmulator } = await startWithRules('grpc', PROJECT, RULES))
})

afterAll(async () => {
  await Promise.all(apps.map((app) => deleteApp(app)))
  await closeEmulator?.()
})

describe('firebase-admin over gRPC on the admin listener', () => {
  test('set, get, query, getAll, count, a transaction, listDocuments and listCollections', async () => {
    const db = adminFirestore(emulator.adminPort)
    const at = new Date('2026-01-02T03:04:05.678Z')
    await db.doc('persons/p1').set({ name: 'Ada', at, tags: ['a', 'b'], nothing: null, bytes: Buffer.from('hej') })
    await db.doc('persons/p2').set({ name: 'Bo', visits: 1 })
    const ada = await db.doc('persons/p1').get()
    expect(ada.exists).toBe(true)
    expect(ada.get('name')).toBe('Ada')
    expect(ada.get('at').toDate().toISOString()).toBe(at.toISOString())
    expect(ada.get('tags')).toEqual(['a', 'b'])
    expect(ada.get('nothing')).toBeNull()
    expect(Buffer.from(ada.get('bytes')).toString()).toBe('hej')
    expect((await db.doc('persons/none').get()).exists).toBe(false)
    const named = await db.collection('persons').where('name', '==', 'Bo').get()
    expect(named.docs.map((doc) => doc.id)).toEqual(['p2'])
    const limited = await db.collection('persons').orderBy('name', 'desc').limit(1).get()
    expect(limited.docs.map((doc) => doc.id)).toEqual(['p2'])
    const both = await db.getAll(db.doc('persons/p1'), db.doc('persons/none'))
    expect(both.map((doc) => doc.exists)).toEqual([true, false])
    expect((await db.collection('persons').count().get()).data().count).toBe(2)
    const visits = await db.runTransaction(async (tx) => {
      const bo = await tx.get(db.doc('persons/p2'))
      tx.update(db.doc('persons/p2'), { visits: bo.get('visits') + 1 })
      return bo.get('visits') + 1
    })
    expect(visits).toBe(2)
    expect((await db.doc('persons/p2').get()).get('visits')).toBe(2)
    await db.doc('persons/p2').update({ visits: FieldValue.increment(3) })
    expect((await db.doc('persons/p2').get()).get('visits')).toBe(5)
    expect((await db.collection('persons').listDocuments()).map((ref) => ref.id).sort()).toEqual(['p1', 'p2'])
    expect((await db.listCollections()).map((ref) => ref.id)).toEqual(['persons'])
    await db.doc('persons/p2').delete()
    expect((await db.doc('persons/p2').get()).exists).toBe(false)
  })

  test('a transaction whose read changed underneath is retried, as the SDK does on ABORTED', async () => {
    const db = adminFirestore(emulator.adminPort)
    await db.doc('persons/p3').set({ n: 0 })
    let attempts = 0
    await db.runTransaction(async (tx) => {
      attempts++
      const doc = await tx.get(db.doc('persons/p3'))
      if (attempts === 1) await db.doc('persons/p3').set({ n: 10 })
      tx.set(db.doc('persons/p3'), { n: doc.get('n') + 1 })
    })
    expect(attempts).toBe(2)
    expect((await db.doc('persons/p3').get()).get('n')).toBe(11)
  })
})

describe('the browser-facing Firestore port over gRPC', () => {
  test('refuses `Bearer owner` (firebase-admin pointed at it) as REST does', async () => {
    const db = adminFirestore(emulator.firestorePort)
    await expect(db.doc('persons/p1').get()).rejects.toMatchObject({
      code: grpc.status.PERMISSION_DENIED,
      details: 'Privileged credentials are accepted only on the admin listener or with the admin secret.',
    })
  })

  test("a client's ID token reads what the rules allow, is denied the rest, and its reads are in the Adgangslog", async () => {
    const db = adminFirestore(emulator.adminPort)
    await db.doc('persons/p1/notes/n1').set({ text: 'tirsdag' })
    await db.doc('persons/p2/notes/n1').set({ text: 'onsdag' })
    const token = await idToken('emp')
    const before = (await accessLog('p1')).length

    const got = await call(
      emulator.firestorePort,
      'GetDocument',
      { name: `${DATABASE}/documents/persons/p1/notes/n1` },
      token,
    )
    expect(got.code).toBe(0)
    expect(got.messages[0]).toMatchObject({
      name: `${DATABASE}/documents/persons/p1/notes/n1`,
      fields: { text: { stringValue: 'tirsdag' } },
    })
    const query = await call(
      emulator.firestorePort,
      'RunQuery',
      { parent: `${DATABASE}/documents/persons/p1`, structuredQuery: { from: [{ collectionId: 'notes' }] } },
      token,
    )
    expect(query.code).toBe(0)
    expect(query.messages.map((message) => (message.document as { name: string } | undefined)?.name)).toEqual([
      `${DATABASE}/documents/persons/p1/notes/n1`,
    ])

    const denied = await call(
      emulator.firestorePort,
      'GetDocument',
      { name: `${DATABASE}/documents/persons/p2/notes/n1` },
      token,
    )
    expect(denied.code).toBe(grpc.status.PERMISSION_DENIED)
    // grpc-message is percent-encoded as the gRPC spec says (spaces and commas as they are).
    expect(denied.details).toMatch(/^[^%]+$/)
    const deniedQuery = await call(
      emulator.firestorePort,
      'RunQuery',
      { parent: `${DATABASE}/documents/persons/p2`, structuredQuery: { from: [{ collectionId: 'notes' }] } },
      token,
    )
    expect(deniedQuery).toMatchObject({ code: grpc.status.PERMISSION_DENIED, messages: [] })
    // A forged token is no identity: the caller is anonymous, and the rules deny it.
    const forged = await call(
      emulator.firestorePort,
      'GetDocument',
      { name: `${DATABASE}/documents/persons/p1/notes/n1` },
      `Bearer ${signUnsigned({ sub: 'emp', aud: PROJECT, iss: `https://securetoken.google.com/${PROJECT}` })}`,
    )
    expect(forged.code).toBe(grpc.status.PERMISSION_DENIED)

    const after = await accessLog('p1')
    // Newest first: the query is logged as a list, the get as a get.
    const entries = after.slice(0, after.length - before)
    expect(entries.map((entry) => entry.labels.operation)).toEqual(['list', 'get'])
    expect(entries.map((entry) => entry.protoPayload.methodName)).toEqual([
      'google.firestore.v1.Firestore.RunQuery',
      'google.firestore.v1.Firestore.GetDocument',
    ])
  })

  test('a client write through Commit is decided by the rules', async () => {
    const token = await idToken('emp')
    const write = (person: string) =>
      call(
        emulator.firestorePort,
        'Commit',
        {
          database: DATABASE,
          writes: [
            {
              update: {
                name: `${DATABASE}/documents/persons/${person}/notes/n2`,
                fields: { text: { stringValue: 'x' } },
              },
            },
          ],
        },
        token,
      )
    const allowed = await write('p1')
    expect(allowed.code).toBe(0)
    expect(allowed.messages[0]).toMatchObject({ commitTime: expect.any(String), writeResults: [expect.any(Object)] })
    expect((await write('p2')).code).toBe(grpc.status.PERMISSION_DENIED)
  })

  test('a method not served yet answers UNIMPLEMENTED, and REST still answers on the same port', async () => {
    const token = await idToken('emp')
    const partition = await call(emulator.firestorePort, 'PartitionQuery', { parent: `${DATABASE}/documents` }, token)
    expect(partition.code).toBe(grpc.status.UNIMPLEMENTED)
    const rest = await fetch(
      `http://127.0.0.1:${emulator.firestorePort}/v1/${DATABASE}/documents/persons/p1/notes/n1`,
      {
        headers: { authorization: token },
      },
    )
    expect(rest.status).toBe(200)
  })
})

/** Resolves with the first value `take` accepts out of a listener's snapshots. */
function waitFor<T, S>(
  subscribe: (next: (snapshot: S) => void, fail: (error: Error) => void) => () => void,
  take: (snapshot: S) => T | undefined,
) {
  return new Promise<T>((resolve, reject) => {
    const unsubscribe = subscribe(
      (snapshot) => {
        const value = take(snapshot)
        if (value === undefined) return
        unsubscribe()
        resolve(value)
      },
      (error) => reject(error),
    )
  })
}

describe('Listen', () => {
  test('firebase-admin onSnapshot on a query: the initial snapshot, then a commit from REST, then a delete', async () => {
    const db = adminFirestore(emulator.adminPort)
    await db.doc('persons/p5/visits/v1').set({ day: 1 })
    const seen: string[][] = []
    const query = db.collection('persons/p5/visits').orderBy('day')
    const done = waitFor<string[], FirebaseFirestore.QuerySnapshot>(
      (next, fail) => query.onSnapshot(next, fail),
      (snapshot) => {
        seen.push(snapshot.docs.map((doc) => doc.id))
        return seen.length === 3 ? seen.at(-1) : undefined
      },
    )
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1)
    // A write through the other transport reaches the listener.
    const rest = await fetch(`http://127.0.0.1:${emulator.adminPort}/v1/${DATABASE}/documents:commit`, {
      method: 'POST',
      headers: { ...OWNER, 'content-type': 'application/json' },
      body: JSON.stringify({
        writes: [
          { update: { name: `${DATABASE}/documents/persons/p5/visits/v2`, fields: { day: { integerValue: '2' } } } },
        ],
      }),
    })
    expect(rest.status).toBe(200)
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(2)
    await db.doc('persons/p5/visits/v1').delete()
    expect(await done).toEqual(['v2'])
    expect(seen).toEqual([['v1'], ['v1', 'v2'], ['v2']])
  })

  test('firebase-admin onSnapshot on a document that does not exist yet, then is created', async () => {
    const db = adminFirestore(emulator.adminPort)
    const states: (number | null)[] = []
    const done = waitFor<number, FirebaseFirestore.DocumentSnapshot>(
      (next, fail) => db.doc('persons/p6').onSnapshot(next, fail),
      (snapshot) => {
        states.push(snapshot.exists ? snapshot.get('n') : null)
        return snapshot.exists ? snapshot.get('n') : undefined
      },
    )
    await expect.poll(() => states.length, { timeout: 10_000 }).toBe(1)
    await db.doc('persons/p6').set({ n: 7 })
    expect(await done).toBe(7)
    expect(states).toEqual([null, 7])
  })
})

describe('the full web SDK (gRPC under Node) as a signed-in client', () => {
  test('listens to what the rules allow, is told PERMISSION_DENIED for the rest, and each snapshot is logged', async () => {
    const admin = adminFirestore(emulator.adminPort)
    await admin.doc('persons/p1/registrations/a').set({ text: 'morgen' })
    await admin.doc('persons/p2/registrations/a').set({ text: 'aften' })
    const app: FirebaseApp = await signedInApp(emulator.authPort, emulator.serviceAccount, PROJECT, 'grpc-web')
    const db = initializeFirestore(app, {})
    connectFirestoreEmulator(db, '127.0.0.1', emulator.firestorePort)
    try {
      const before = (await accessLog('p1')).length
      // getDoc of the full SDK is a Listen target.
      expect((await getDoc(doc(db, 'persons/p1/registrations/a'))).get('text')).toBe('morgen')
      const texts: string[][] = []
      const live = waitFor<string[], { docs: { get(field: string): string }[] }>(
        (next, fail) => onSnapshot(collection(db, 'persons/p1/registrations'), next, fail),
        (snapshot) => {
          texts.push(snapshot.docs.map((each) => each.get('text')))
          return texts.length === 2 ? texts[1] : undefined
        },
      )
      await expect.poll(() => texts.length, { timeout: 10_000 }).toBe(1)
      // A colleague's write (firebase-admin, through Commit) reaches this listener.
      await admin.doc('persons/p1/registrations/b').set({ text: 'middag' })
      expect(await live).toEqual(['morgen', 'middag'])
      // A transaction of the full SDK: BatchGetDocuments, then Commit with a `verify` write for the read.
      const counted = await runTransaction(db, async (tx) => {
        const plan = await tx.get(doc(db, 'persons/p1/registrations/a'))
        tx.set(doc(db, 'persons/p1/registrations/count'), { n: plan.exists() ? 1 : 0 })
        return plan.get('text')
      })
      expect(counted).toBe('morgen')
      expect((await admin.doc('persons/p1/registrations/count').get()).get('n')).toBe(1)
      const denied = await new Promise<{ code: string }>((resolve) => {
        const unsubscribe = onSnapshot(
          collection(db, 'persons/p2/registrations'),
          () => {},
          (error) => {
            unsubscribe()
            resolve(error as unknown as { code: string })
          },
        )
      })
      expect(denied.code).toBe('permission-denied')
      const after = await accessLog('p1')
      const listens = after
        .slice(0, after.length - before)
        .filter((entry) => entry.protoPayload.methodName.endsWith('.Listen'))
      expect(listens.length).toBeGreaterThanOrEqual(3)
      expect((await accessLog('p2')).some((entry) => entry.protoPayload.methodName.endsWith('.Listen'))).toBe(false)
    } finally {
      await terminate(db)
      await deleteWebApp(app)
    }
  })
})
