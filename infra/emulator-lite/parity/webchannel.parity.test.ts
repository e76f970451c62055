import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { deleteApp as deleteWebApp, initializeApp as initializeWebApp } from 'firebase/app'
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { type Firestore, getFirestore } from 'firebase-admin/firestore'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { EmulatorLite } from '../src/index.ts'
import { startBoth } from './both-emulators.ts'
import type { OfficialFirestore } from './official-emulator.ts'

// The same listener scenario of the full web SDK's browser build (its streams are WebChannel
// sessions, its writes too) against emulator-lite and Google's emulator: the snapshots the SDK
// raises and the write outcomes must match.
const PROJECT = 'demo-webchannel-parity'
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /persons/{personId}/{rest=**} { allow read, write: if request.auth != null && personId == 'p1'; }
  }
}`

type Sdk = typeof import('firebase/firestore')
let sdk: Sdk
let closeBoth: (() => Promise<void>) | undefined
let official: OfficialFirestore
let lite: EmulatorLite
const apps: App[] = []

function adminAt(host: string): Firestore {
  process.env.FIRESTORE_EMULATOR_HOST = host
  const app = initializeApp({ projectId: PROJECT }, `webchannel-parity-${randomUUID()}`)
  apps.push(app)
  return getFirestore(app)
}

beforeAll(async () => {
  const pkg = createRequire(import.meta.url).resolve('@firebase/firestore/package.json')
  sdk = (await import(pathToFileURL(join(dirname(pkg), 'dist/index.esm.js')).href)) as Sdk
  ;({ official, lite, close: closeBoth } = await startBoth('webchannel-parity', RULES))
}, 180_000)

afterAll(async () => {
  await Promise.allSettled(apps.map((app) => deleteApp(app)))
  await closeBoth?.()
})

/** What the web SDK's listeners raised, as plain data. */
async function sequence(adminHost: string, clientHost: string, settings: Record<string, unknown>) {
  const admin = adminAt(adminHost)
  await admin.doc('persons/p1/notes/a').set({ day: 1, text: 'tirsdag é☃😀' })
  await admin.doc('persons/p1/notes/b').set({ day: 2, tags: ['x'] })
  await admin.doc('persons/p2/notes/a').set({ day: 3 })
  const app = initializeWebApp({ projectId: PROJECT, apiKey: 'fake-api-key' }, `web-${randomUUID()}`)
  const db = sdk.initializeFirestore(app, settings)
  const [host, port] = clientHost.split(':') as [string, string]
  sdk.connectFirestoreEmulator(db, host, Number(port), { mockUserToken: { sub: 'emp', user_id: 'emp' } })
  const unsubscribes: (() => void)[] = []
  try {
    const queries: { ids: string[]; changes: string[] }[] = []
    unsubscribes.push(
      sdk.onSnapshot(sdk.query(sdk.collection(db, 'persons/p1/notes'), sdk.orderBy('day')), (snapshot) => {
        if (snapshot.metadata.fromCache) return
        queries.push({
          ids: snapshot.docs.map((each) => each.id),
          changes: snapshot.docChanges().map((change) => `${change.type}:${change.doc.id}`),
        })
      }),
    )
    await expect.poll(() => queries.length, { timeout: 20_000 }).toBe(1)
    const docs: unknown[] = []
    unsubscribes.push(
      sdk.onSnapshot(sdk.doc(db, 'persons/p1/notes/a'), (snapshot) => {
        docs.push(snapshot.exists() ? snapshot.data() : null)
      }),
    )
    await expect.poll(() => docs.length, { timeout: 20_000 }).toBe(1)
    // The client's own write goes through the Write channel.
    await sdk.setDoc(sdk.doc(db, 'persons/p1/notes/c'), { day: 0 })
    await expect.poll(() => queries.length, { timeout: 20_000 }).toBe(2)
    await admin.doc('persons/p1/notes/a').update({ day: 5 })
    await expect.poll(() => queries.length, { timeout: 20_000 }).toBe(3)
    await expect.poll(() => docs.length, { timeout: 20_000 }).toBe(2)
    await admin.doc('persons/p1/notes/b').delete()
    await expect.poll(() => queries.length, { timeout: 20_000 }).toBe(4)
    const denied = await new Promise<string>((resolve) => {
      const unsubscribe = sdk.onSnapshot(
        sdk.collection(db, 'persons/p2/notes'),
        () => {},
        (error) => {
          unsubscribe()
          resolve((error as unknown as { code: string }).code)
        },
      )
    })
    const deniedWrite = await sdk.setDoc(sdk.doc(db, 'persons/p2/notes/x'), { day: 9 }).then(
      () => 'written',
      (error: { code: string }) => error.code,
    )
    return { queries, docs, denied, deniedWrite }
  } finally {
    for (const unsubscribe of unsubscribes) unsubscribe()
    await sdk.terminate(db)
    await deleteWebApp(app)
    await admin.recursiveDelete(admin.collection('persons'))
  }
}

for (const [name, settings] of [
  ['streaming', {}],
  ['long polling', { experimentalForceLongPolling: true }],
] as const)
  test(`the web SDK's listeners over WebChannel (${name}) see the same from both emulators`, async () => {
    const fromLite = await sequence(`127.0.0.1:${lite.adminPort}`, `127.0.0.1:${lite.firestorePort}`, settings)
    const fromOfficial = await sequence(official.host, official.host, settings)
    expect(fromLite).toEqual(fromOfficial)
    expect(fromLite.queries.map((snapshot) => snapshot.ids)).toEqual([
      ['a', 'b'],
      ['c', 'a', 'b'],
      ['c', 'b', 'a'],
      ['c', 'a'],
    ])
    expect(fromLite.denied).toBe('permission-denied')
    expect(fromLite.deniedWrite).toBe('permission-denied')
  }, 240_000)
