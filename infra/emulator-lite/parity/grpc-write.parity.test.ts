import { afterAll, beforeAll, expect, test } from 'vitest'
import type { EmulatorLite } from '../src/index.ts'
import { signUnsigned } from '../test/forged-token.ts'
import { call } from '../test/grpc-client.ts'
import { openStream, type StreamEvent } from '../test/grpc-stream.ts'
import { startBoth } from './both-emulators.ts'
import type { OfficialFirestore } from './official-emulator.ts'

// The gRPC `Write` stream and the unary RPCs the Node server SDKs call, as the same sequences against
// emulator-lite and Google's emulator: the answers must match, normalised for ids and times only.
const PROJECT = 'demo-grpc-write-parity'
const DATABASE = `projects/${PROJECT}/databases/(default)`
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /persons/{personId}/{rest=**} { allow read, write: if request.auth != null && personId == 'p1'; }
  }
}`

let closeBoth: (() => Promise<void>) | undefined
let official: OfficialFirestore
let lite: EmulatorLite

beforeAll(async () => {
  ;({ official, lite, close: closeBoth } = await startBoth('grpc-write-parity', RULES))
}, 180_000)

afterAll(async () => {
  await closeBoth?.()
})

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/

/** Times become `<time>`, stream ids `<id>`, transaction ids `<tx>`: nothing else is touched. */
function normalise(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normalise(item, key))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, k)]))
  if (typeof value === 'string' && RFC3339.test(value)) return '<time>'
  if (key === 'streamId' && typeof value === 'string') return '<id>'
  if (key === 'transaction' && typeof value === 'string') return '<tx>'
  return value
}

/** A status as the client sees it: the code, and of the message what both emulators word alike. */
function status(event: StreamEvent) {
  if ('message' in event) return { message: normalise(event.message) }
  return { code: event.code, details: event.details }
}

const note = (path: string, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  update: { name: `${DATABASE}/documents/${path}`, fields },
  ...extra,
})

/** Sends each request after the previous answer; stops at the first status. */
async function exchange(host: string, authorization: string | undefined, requests: Record<string, unknown>[]) {
  const stream = openStream(host, 'Write', authorization, DATABASE)
  const seen: unknown[] = []
  let token: unknown
  for (const request of requests) {
    stream.send(token === undefined || 'database' in request ? request : { streamToken: token, ...request })
    const event = await stream.next()
    seen.push(status(event))
    if (!('message' in event)) return seen
    token = event.message.streamToken
  }
  stream.end()
  seen.push(status(await stream.next()))
  return seen
}

async function sequence(host: string, adminHost: string) {
  const now = Math.floor(Date.now() / 1000)
  const client = `Bearer ${signUnsigned({ sub: 'emp', user_id: 'emp', aud: PROJECT, iss: `https://securetoken.google.com/${PROJECT}`, iat: now, exp: now + 3600, firebase: { sign_in_provider: 'custom' } })}`
  const seen: Record<string, unknown> = {}
  const handshake = { database: DATABASE }
  seen.writes = await exchange(host, client, [
    handshake,
    { writes: [note('persons/p1/notes/a', { text: { stringValue: 'morgen' }, n: { integerValue: '1' } })] },
    {
      writes: [
        note('persons/p1/notes/b', { text: { stringValue: 'aften' } }),
        {
          ...note('persons/p1/notes/a', {}),
          updateMask: {},
          updateTransforms: [
            { fieldPath: 'at', setToServerValue: 'REQUEST_TIME' },
            { fieldPath: 'n', increment: { integerValue: '2' } },
            { fieldPath: 'tags', appendMissingElements: { values: [{ stringValue: 'x' }] } },
          ],
          currentDocument: { exists: true },
        },
      ],
    },
    { writes: [{ delete: `${DATABASE}/documents/persons/p1/notes/b` }] },
    {},
  ])
  seen.afterWrites = normalise(
    (await call(host, 'GetDocument', { name: `${DATABASE}/documents/persons/p1/notes/a` }, client)).messages[0]?.fields,
  )
  // Denied by the rules: the code (the wording of a rules denial is each engine's own).
  const denied = await exchange(host, client, [handshake, { writes: [note('persons/p2/notes/a', {})] }])
  seen.denied = denied.map((event) => (event as { code?: number }).code ?? event)
  const anonymous = await exchange(host, undefined, [handshake, { writes: [note('persons/p1/notes/c', {})] }])
  seen.anonymous = anonymous.map((event) => (event as { code?: number }).code ?? event)
  // A precondition that fails, and an already existing document: the code and the message's head.
  const head = (events: unknown[]) =>
    events.map((event) => {
      const { code, details } = event as { code?: number; details?: string }
      return code === undefined ? event : { code, head: details?.split(':')[0] }
    })
  seen.missing = head(
    await exchange(host, client, [
      handshake,
      { writes: [note('persons/p1/notes/none', {}, { currentDocument: { exists: true } })] },
    ]),
  )
  seen.exists = head(
    await exchange(host, client, [
      handshake,
      { writes: [note('persons/p1/notes/a', {}, { currentDocument: { exists: false } })] },
    ]),
  )
  seen.invalidField = await exchange(host, client, [
    handshake,
    { writes: [note('persons/p1/notes/a', { __x__: { stringValue: 'x' } })] },
  ])
  seen.writesFirst = await exchange(host, client, [{ ...handshake, writes: [note('persons/p1/notes/a', {})] }])
  seen.noDatabase = await exchange(host, client, [{ writes: [] }])
  seen.resume = await exchange(host, client, [{ ...handshake, streamToken: 'MQ==' }])
  seen.otherDatabase = await exchange(host, client, [
    handshake,
    { database: 'projects/other/databases/(default)', writes: [note('persons/p1/notes/a', {})] },
  ])
  // The unary RPCs firebase-admin calls, answered in the same shapes.
  const owner = 'Bearer owner'
  const unary = async (method: string, request: Record<string, unknown>, authorization = owner) => {
    const reply = await call(authorization === owner ? adminHost : host, method, request, authorization)
    return { code: reply.code, messages: normalise(reply.messages) }
  }
  const begun = await call(adminHost, 'BeginTransaction', { database: DATABASE }, owner)
  const transaction = begun.messages[0]?.transaction as string
  seen.unary = {
    begin: normalise(begun.messages),
    batchGet: await unary('BatchGetDocuments', {
      database: DATABASE,
      documents: [`${DATABASE}/documents/persons/p1/notes/a`, `${DATABASE}/documents/persons/p1/notes/none`],
      transaction,
    }),
    commit: await unary('Commit', {
      database: DATABASE,
      transaction,
      writes: [
        note('persons/p1/notes/t', { v: { booleanValue: true } }),
        { delete: `${DATABASE}/documents/persons/p1/notes/x` },
      ],
    }),
    rollback: await unary('Rollback', {
      database: DATABASE,
      transaction: (await call(adminHost, 'BeginTransaction', { database: DATABASE }, owner)).messages[0]?.transaction,
    }),
    runQuery: await unary('RunQuery', {
      parent: `${DATABASE}/documents/persons/p1`,
      structuredQuery: { from: [{ collectionId: 'notes' }], orderBy: [{ field: { fieldPath: '__name__' } }] },
    }),
    aggregation: await unary('RunAggregationQuery', {
      parent: `${DATABASE}/documents/persons/p1`,
      structuredAggregationQuery: {
        structuredQuery: { from: [{ collectionId: 'notes' }] },
        aggregations: [{ alias: 'n', count: {} }],
      },
    }),
    collectionIds: await unary('ListCollectionIds', { parent: `${DATABASE}/documents/persons/p1` }),
    deniedCommit: (await unary('Commit', { database: DATABASE, writes: [note('persons/p2/notes/z', {})] }, client))
      .code,
  }
  return seen
}

test('the Write stream and the unary RPCs answer as the official emulator does', async () => {
  const fromLite = await sequence(`127.0.0.1:${lite.firestorePort}`, `127.0.0.1:${lite.adminPort}`)
  const fromOfficial = await sequence(official.host, official.host)
  expect(fromLite).toEqual(fromOfficial)
  // What the comparison covers, so an empty sequence cannot pass.
  expect((fromLite.writes as unknown[]).length).toBe(6)
  expect(fromLite.denied).toEqual([{ message: { streamId: '<id>', streamToken: 'MA==' } }, 7])
}, 240_000)
