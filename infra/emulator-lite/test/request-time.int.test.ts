import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deleteApp, initializeApp } from 'firebase/app'
import {
  connectFirestoreEmulator,
  doc,
  initializeFirestore,
  serverTimestamp,
  setDoc,
  terminate,
} from 'firebase/firestore'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

// A rule may require a server timestamp to equal `request.time` (the usual "stamped now" check).
// Firestore gives both the commit's time, so the check holds however many commits share a
// millisecond and whatever the transport. Found by a public rules suite run through the full SDK.
const PROJECT = 'demo-request-time'
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /stamped/{id} {
      allow read: if true;
      allow create: if request.resource.data.at == request.time && request.time == request.resource.data.again;
    }
  }
}`

let dir: string
let emulator: EmulatorLite

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-lite-request-time-'))
  writeFileSync(join(dir, 'firestore.rules'), RULES)
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    authProjectId: PROJECT,
    inMemory: true,
    firestoreRules: join(dir, 'firestore.rules'),
  })
})

afterAll(async () => {
  await emulator?.close()
  rmSync(dir, { recursive: true, force: true })
})

const stampNow = (fieldPath: string) => ({ fieldPath, setToServerValue: 'REQUEST_TIME' })

test('a REST commit whose server timestamps must equal request.time is allowed, also 60 at once', async () => {
  const base = `http://127.0.0.1:${emulator.firestorePort}/v1/projects/${PROJECT}/databases/(default)/documents`
  const commit = (id: number) =>
    fetch(`${base}:commit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        writes: [
          { update: { name: `projects/${PROJECT}/databases/(default)/documents/stamped/rest-${id}`, fields: {} } },
        ].map((write) => ({ ...write, updateTransforms: [stampNow('at'), stampNow('again')] })),
      }),
    })
  // Commits landing in the same millisecond get commit times a microsecond apart.
  const answers = await Promise.all(Array.from({ length: 60 }, (_, id) => commit(id)))
  const statuses = answers.map((answer) => answer.status)
  expect(statuses.filter((status) => status !== 200)).toEqual([])
  const stored = (await (await fetch(`${base}/stamped/rest-0`)).json()) as {
    updateTime: string
    fields: { at: { timestampValue: string } }
  }
  expect(stored.fields.at.timestampValue).toBe(stored.updateTime)
})

test("the full SDK's writes over the gRPC Write stream, stamped with serverTimestamp(), are allowed", async () => {
  const app = initializeApp({ projectId: PROJECT, apiKey: 'fake' }, 'request-time')
  const db = initializeFirestore(app, {})
  connectFirestoreEmulator(db, '127.0.0.1', emulator.firestorePort)
  try {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, id) =>
        setDoc(doc(db, 'stamped', `sdk-${id}`), { at: serverTimestamp(), again: serverTimestamp() }),
      ),
    )
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([])
  } finally {
    await terminate(db)
    await deleteApp(app)
  }
})
