import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@bosted/stack/ports'
import * as grpc from '@grpc/grpc-js'
import { deleteApp as deleteWebApp } from 'firebase/app'
import {
  collection,
  connectFirestoreEmulator,
  deleteDoc,
  doc,
  getDoc,
  increment,
  initializeFirestore,
  onSnapshot,
  serverTimestamp,
  setDoc,
  terminate,
  updateDoc,
} from 'firebase/firestore'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MAX_BODY_BYTES } from '../src/http/server.ts'
import type { EmulatorLite } from '../src/index.ts'
import { startCliProcess } from './cli-process.ts'
import { signUnsigned } from './forged-token.ts'
import { openStream, type StreamEvent } from './grpc-stream.ts'
import { idTokenFor, signedInApp, startWithRules } from './signed-in.ts'

// The gRPC `Write` stream (ADR 0029): the full SDK's writes, through the REST commit's path — the
// same identity from the `authorization` metadata, rules, limits, Adgangslog and durability.
const PROJECT = 'demo-grpc-write'
const DATABASE = `projects/${PROJECT}/databases/(default)`
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /persons/{personId}/{rest=**} { allow read, write: if request.auth != null && personId == 'p1'; }
  }
}`
const OWNER = 'Bearer owner'

let closeEmulator: (() => Promise<void>) | undefined
let emulator: EmulatorLite

beforeAll(async () => {
  ;({ emulator, close: closeEmulator } = await startWithRules('grpc-write', PROJECT, RULES))
})

afterAll(async () => {
  await closeEmulator?.()
})

async function idToken(uid: string): Promise<string> {
  return `Bearer ${await idTokenFor(emulator.authPort, emulator.serviceAccount, uid)}`
}

/** The stored document through REST on the admin listener, or null. */
async function stored(path: string, port = emulator.adminPort): Promise<Record<string, unknown> | null> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/${DATABASE}/documents/${path}`, {
    headers: { authorization: OWNER },
  })
  if (response.status === 404) return null
  expect(response.status).toBe(200)
  return ((await response.json()) as { fields: Record<string, unknown> }).fields
}

async function accessLog(personId: string) {
  const response = await fetch(
    `http://127.0.0.1:${emulator.adminPort}/emulator/v1/projects/${PROJECT}/accessLog?personId=${personId}`,
    { headers: { authorization: OWNER } },
  )
  expect(response.status).toBe(200)
  return (
    (await response.json()) as {
      entries: { labels: Record<string, string>; protoPayload: { methodName: string } }[]
    }
  ).entries
}

const setNote = (path: string, text: string, extra: Record<string, unknown> = {}) => ({
  update: { name: `${DATABASE}/documents/${path}`, fields: { text: { stringValue: text } } },
  ...extra,
})

function message(event: StreamEvent): Record<string, unknown> {
  if (!('message' in event)) throw new Error(`expected a message, got status ${event.code}: ${event.details}`)
  return event.message
}

/** A Write stream after its handshake: `write` sends one batch and resolves with the reply or the final status. */
async function handshaken(port: number, authorization?: string) {
  const stream = openStream(port, 'Write', authorization, DATABASE)
  stream.send({ database: DATABASE })
  const first = message(await stream.next())
  let token = first.streamToken as string
  return {
    first,
    stream,
    write: async (writes: unknown[]) => {
      stream.send({ streamToken: token, writes })
      const event = await stream.next()
      if ('message' in event) token = event.message.streamToken as string
      return event
    },
  }
}

describe('the Write stream over gRPC', () => {
  test('handshake, then one atomic commit per request answered with a new token, results and commit time', async () => {
    const token = await idToken('emp')
    const { first, stream, write } = await handshaken(emulator.firestorePort, token)
    expect(first).toEqual({ streamId: expect.stringMatching(/^\d+$/), streamToken: 'MA==' })
    expect(first.writeResults).toBeUndefined()
    expect(first.commitTime).toBeUndefined()

    const one = message(await write([setNote('persons/p1/notes/a', 'morgen')]))
    expect(one).toEqual({
      streamToken: 'MQ==',
      writeResults: [{ updateTime: expect.any(String) }],
      commitTime: (one.writeResults as { updateTime: string }[])[0]?.updateTime,
    })
    const two = message(
      await write([
        setNote('persons/p1/notes/b', 'aften'),
        {
          update: { name: `${DATABASE}/documents/persons/p1/notes/a`, fields: {} },
          updateMask: {},
          updateTransforms: [
            { fieldPath: 'at', setToServerValue: 'REQUEST_TIME' },
            { fieldPath: 'visits', increment: { integerValue: '2' } },
          ],
          currentDocument: { exists: true },
        },
      ]),
    )
    expect(two.streamToken).toBe('Mg==')
    expect(two.writeResults).toEqual([
      { updateTime: two.commitTime },
      { updateTime: two.commitTime, transformResults: [{ timestampValue: two.commitTime }, { integerValue: '2' }] },
    ])
    expect(await stored('persons/p1/notes/a')).toMatchObject({
      text: { stringValue: 'morgen' },
      visits: { integerValue: '2' },
    })
    // The client's last request (no writes) is answered with a token; then the call ends with OK.
    stream.send({ streamToken: two.streamToken })
    expect(message(await stream.next())).toEqual({ streamToken: 'Mw==' })
    expect(await stream.next()).toEqual({ code: grpc.status.OK, details: '' })
  })

  test('a denied write ends the stream with PERMISSION_DENIED and nothing sent after it is applied', async () => {
    const token = await idToken('emp')
    const { stream } = await handshaken(emulator.firestorePort, token)
    // Two batches in flight at once, as the SDK pipelines them: the second must not be applied.
    stream.send({ writes: [setNote('persons/p2/notes/a', 'nej')] })
    stream.send({ writes: [setNote('persons/p1/notes/after-denied', 'nej')] })
    const denied = await stream.next()
    expect(denied).toMatchObject({ code: grpc.status.PERMISSION_DENIED })
    expect((denied as { details: string }).details).toMatch(/^Missing or insufficient permissions\./)
    expect(await stored('persons/p2/notes/a')).toBeNull()
    expect(await stored('persons/p1/notes/after-denied')).toBeNull()
  })

  test('a forged or unsigned token is no identity: the rules deny its writes', async () => {
    const now = Math.floor(Date.now() / 1000)
    const claims = {
      sub: 'emp',
      user_id: 'emp',
      aud: PROJECT,
      iss: `https://securetoken.google.com/${PROJECT}`,
      iat: now,
      exp: now + 3600,
      firebase: { sign_in_provider: 'custom' },
    }
    const real = (await idToken('emp')).slice('Bearer '.length).split('.')
    const forgeries = {
      unsigned: `Bearer ${signUnsigned(claims)}`,
      // A real token's header and signature around claims it never signed.
      resigned: `Bearer ${real[0]}.${Buffer.from(JSON.stringify({ ...claims, sub: 'boss', user_id: 'boss' })).toString('base64url')}.${real[2]}`,
      garbage: 'Bearer not-a-token',
    }
    for (const [kind, authorization] of Object.entries(forgeries)) {
      const { write } = await handshaken(emulator.firestorePort, authorization)
      const path = `persons/p1/notes/forged-${kind}`
      expect(await write([setNote(path, kind)])).toMatchObject({ code: grpc.status.PERMISSION_DENIED })
      expect(await stored(path)).toBeNull()
    }
    // The same write with the real token is allowed: the rules, not the path, refused the forgeries.
    const { write } = await handshaken(emulator.firestorePort, await idToken('emp'))
    expect(message(await write([setNote('persons/p1/notes/forged-control', 'ok')])).writeResults).toHaveLength(1)
  })

  test('`Bearer owner` is refused on the Firestore port before the handshake and privileged on the admin port', async () => {
    const refused = openStream(emulator.firestorePort, 'Write', OWNER, DATABASE)
    refused.send({ database: DATABASE })
    expect(await refused.next()).toEqual({
      code: grpc.status.PERMISSION_DENIED,
      details: 'Privileged credentials are accepted only on the admin listener or with the admin secret.',
    })
    const { write } = await handshaken(emulator.adminPort, OWNER)
    expect(message(await write([setNote('persons/p2/notes/by-admin', 'ok')])).writeResults).toHaveLength(1)
    expect(await stored('persons/p2/notes/by-admin')).toMatchObject({ text: { stringValue: 'ok' } })
  })

  test('a batch is atomic: a failed precondition stores none of its writes (NOT_FOUND, as the emulator)', async () => {
    const { write } = await handshaken(emulator.adminPort, OWNER)
    const failed = await write([
      setNote('persons/p1/notes/atomic', 'x'),
      setNote('persons/p1/notes/missing', 'y', { currentDocument: { exists: true } }),
    ])
    expect(failed).toMatchObject({
      code: grpc.status.NOT_FOUND,
      details: expect.stringMatching(/^no entity to update: /),
    })
    expect(await stored('persons/p1/notes/atomic')).toBeNull()
  })

  test('invalid requests: handshake errors, an invalid field, another database, and REST’s body limit', async () => {
    const early = async (request: Record<string, unknown>) => {
      const stream = openStream(emulator.adminPort, 'Write', OWNER, DATABASE)
      stream.send(request)
      return stream.next()
    }
    expect(await early({ database: DATABASE, writes: [setNote('persons/p1/notes/x', 'x')] })).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      details: "'writes' must not be set on an initial write request.",
    })
    expect(await early({ writes: [] })).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      details: "'database' must be set on an initial write request.",
    })
    expect(await early({ database: DATABASE, streamToken: 'MQ==' })).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      details: "Resuming streams is not supported, 'stream_token' must not be set on an initial write request.",
    })
    const reserved = await handshaken(emulator.adminPort, OWNER)
    expect(
      await reserved.write([
        { update: { name: `${DATABASE}/documents/persons/p1/notes/x`, fields: { __x__: { stringValue: 'x' } } } },
      ]),
    ).toEqual({ code: grpc.status.INVALID_ARGUMENT, details: 'field name __x__ is reserved' })
    const other = await handshaken(emulator.adminPort, OWNER)
    other.stream.send({ database: 'projects/other/databases/(default)', writes: [setNote('persons/p1/notes/x', 'x')] })
    expect(await other.stream.next()).toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      details: expect.stringMatching(/^Request specified a database \(projects\/other/),
    })
    const large = await handshaken(emulator.adminPort, OWNER)
    expect(await large.write([setNote('persons/p1/notes/large', 'x'.repeat(MAX_BODY_BYTES + 1))])).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      details: `Request body exceeds ${MAX_BODY_BYTES} bytes`,
    })
    expect(await stored('persons/p1/notes/x')).toBeNull()
  })

  test("a client's write of person data is in the Adgangslog as a Write, stored with the data", async () => {
    const before = (await accessLog('p1')).length
    const { write } = await handshaken(emulator.firestorePort, await idToken('emp'))
    message(await write([setNote('persons/p1/notes/logged', 'x')]))
    const after = await accessLog('p1')
    const entries = after.slice(0, after.length - before)
    expect(entries.map((entry) => [entry.protoPayload.methodName, entry.labels.operation])).toEqual([
      ['google.firestore.v1.Firestore.Write', 'create'],
    ])
  })
})

describe('the full web SDK (gRPC under Node) writes through the Write stream', () => {
  test('setDoc, updateDoc with transforms, deleteDoc; a denied write is rejected and the next one goes through', async () => {
    const app = await signedInApp(emulator.authPort, emulator.serviceAccount, PROJECT, 'grpc-write-web')
    const db = initializeFirestore(app, {})
    connectFirestoreEmulator(db, '127.0.0.1', emulator.firestorePort)
    try {
      const note = doc(db, 'persons/p1/registrations/w')
      await setDoc(note, { text: 'morgen', visits: 1 })
      await updateDoc(note, { visits: increment(2), at: serverTimestamp() })
      expect(await stored('persons/p1/registrations/w')).toMatchObject({
        text: { stringValue: 'morgen' },
        visits: { integerValue: '3' },
        at: { timestampValue: expect.any(String) },
      })
      expect((await getDoc(note)).get('visits')).toBe(3)
      await expect(setDoc(doc(db, 'persons/p2/registrations/w'), { text: 'nej' })).rejects.toMatchObject({
        code: 'permission-denied',
      })
      // The SDK opens a new stream after the error, as with production.
      await setDoc(doc(db, 'persons/p1/registrations/after'), { text: 'ja' })
      expect(await stored('persons/p1/registrations/after')).toMatchObject({ text: { stringValue: 'ja' } })
      // A stream write reaches the Listen targets: the SDK's own listener sees it confirmed by the server.
      const confirmed = new Promise<string[]>((resolve, reject) => {
        const unsubscribe = onSnapshot(
          collection(db, 'persons/p1/live'),
          { includeMetadataChanges: true },
          (snapshot) => {
            if (snapshot.metadata.hasPendingWrites || snapshot.empty) return
            unsubscribe()
            resolve(snapshot.docs.map((each) => each.get('text')))
          },
          reject,
        )
      })
      await setDoc(doc(db, 'persons/p1/live/x'), { text: 'nu' })
      expect(await confirmed).toEqual(['nu'])
      await deleteDoc(note)
      expect(await stored('persons/p1/registrations/w')).toBeNull()
      expect(await stored('persons/p2/registrations/w')).toBeNull()
    } finally {
      await terminate(db)
      await deleteWebApp(app)
    }
  })
})

test('every write the stream acknowledged survives kill -9 in the middle of a burst', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'emulator-lite-grpc-write-durable-'))
  const ports = { firestore: await freePort(), storage: await freePort(), admin: await freePort() }
  const start = async () =>
    (
      await startCliProcess([
        '--firestore-port',
        String(ports.firestore),
        '--storage-port',
        String(ports.storage),
        '--admin-port',
        String(ports.admin),
        '--data',
        dataDir,
      ])
    ).child
  let child: ChildProcess = await start()
  try {
    const { stream } = await handshaken(ports.admin, OWNER)
    // 5,000 batches pipelined at once; the process is killed once 30 were acknowledged, with the rest in flight.
    for (let i = 0; i < 5000; i++) stream.send({ writes: [setNote(`burst/n${i}`, String(i))] })
    const acknowledged: number[] = []
    let stopped: { code: number; details: string } | undefined
    while (stopped === undefined) {
      const event = await stream.next()
      if (!('message' in event)) stopped = event
      else if (acknowledged.push(acknowledged.length) === 30) child.kill('SIGKILL')
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(30)
    // The connection died under the call (grpc-js reports it as CANCELLED or UNAVAILABLE): never OK.
    expect(stopped?.code).not.toBe(grpc.status.OK)
    expect(acknowledged.length).toBeLessThan(5000)
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit')
    child = await start()
    const response = await fetch(`http://127.0.0.1:${ports.admin}/v1/${DATABASE}/documents:runQuery`, {
      method: 'POST',
      headers: { authorization: OWNER, 'content-type': 'application/json' },
      body: JSON.stringify({ structuredQuery: { from: [{ collectionId: 'burst' }] } }),
    })
    const found = new Map(
      ((await response.json()) as { document?: { name: string; fields: { text: { stringValue: string } } } }[])
        .filter((row) => row.document)
        .map((row) => [row.document?.name.split('/').pop(), row.document?.fields.text.stringValue]),
    )
    for (const i of acknowledged) expect(found.get(`n${i}`)).toBe(String(i))
  } finally {
    child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 120_000)
