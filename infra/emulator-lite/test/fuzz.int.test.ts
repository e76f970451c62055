import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

let emulator: EmulatorLite
const project = 'demo-fuzz'
const root = `projects/${project}/databases/(default)/documents`

/** The seeded data as it was before any fuzz request; both tests check it is unchanged afterwards. */
let before: unknown

beforeAll(async () => {
  emulator = await startEmulatorLite({ firestorePort: 0, storagePort: 0, inMemory: true })
  await seed()
  before = await snapshot()
  // The snapshot really holds the seeded data (so comparing it afterwards means something).
  expect(JSON.stringify(before)).toContain('"keep":{"stringValue":"me"}')
  expect(JSON.stringify(before)).toContain(`${root}/fuzz/seed/sub/child`)
  expect((before as { objects: { bytes: string }[] }).objects.map((o) => o.bytes)).toEqual(
    SEED_OBJECTS.map((o) => o.data.toString('base64')),
  )
})
afterAll(() => emulator.close())

const firestore = () => `http://127.0.0.1:${emulator.firestorePort}`
const storage = () => `http://127.0.0.1:${emulator.storagePort}`

/** Documents (one in a subcollection) and objects (in two buckets) that no fuzz request may change. */
const SEED_DOCUMENTS: Record<string, Record<string, unknown>> = {
  'fuzz/seed': { keep: { stringValue: 'me' } },
  'fuzz/second': {
    n: { integerValue: '42' },
    d: { doubleValue: 2.5 },
    t: { timestampValue: '2024-01-02T03:04:05.678901000Z' },
    b: { bytesValue: 'AAEC/w==' },
    g: { geoPointValue: { latitude: 1.5, longitude: -2 } },
    r: { referenceValue: `${root}/fuzz/seed` },
    a: { arrayValue: { values: [{ nullValue: null }, { booleanValue: true }] } },
    m: { mapValue: { fields: { inner: { stringValue: 'x' } } } },
  },
  'fuzz/seed/sub/child': { depth: { integerValue: '2' } },
  'elsewhere/doc': { other: { booleanValue: false } },
}
const SEED_OBJECTS = [
  { bucket: 'bkt', name: 'keep.txt', data: Buffer.from('keep') },
  { bucket: 'bkt', name: 'deep/nested/blob.bin', data: Buffer.from([0, 1, 2, 253, 254, 255]) },
  { bucket: 'other-bkt', name: 'keep.txt', data: Buffer.from('other bucket') },
]

async function seed(): Promise<void> {
  const response = await fetch(`${firestore()}/v1/${root}:commit`, {
    method: 'POST',
    body: JSON.stringify({
      writes: Object.entries(SEED_DOCUMENTS).map(([path, fields]) => ({ update: { name: `${root}/${path}`, fields } })),
    }),
  })
  expect(response.status).toBe(200)
  for (const object of SEED_OBJECTS) {
    const upload = await fetch(`${storage()}/v0/b/${object.bucket}/o?name=${encodeURIComponent(object.name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: object.data,
    })
    expect(upload.status).toBe(200)
  }
}

/** Every seeded document as stored (fields and times), the subcollection's listing, and every seeded object's bytes and metadata. */
async function snapshot(): Promise<unknown> {
  const names = Object.keys(SEED_DOCUMENTS).map((path) => `${root}/${path}`)
  const read = await fetch(`${firestore()}/v1/${root}:batchGet`, {
    method: 'POST',
    body: JSON.stringify({ documents: names }),
  })
  const documents = ((await read.json()) as { found?: unknown; missing?: unknown }[]).map(
    (element) => element.found ?? element,
  )
  const sub = await fetch(`${firestore()}/v1/${root}/fuzz/seed:runQuery`, {
    method: 'POST',
    body: JSON.stringify({ structuredQuery: { from: [{ collectionId: 'sub' }] } }),
  })
  const subcollection = ((await sub.json()) as { document?: { name: string } }[]).map((e) => e.document?.name)
  const objects = []
  for (const { bucket, name } of SEED_OBJECTS) {
    const url = `${storage()}/v0/b/${bucket}/o/${encodeURIComponent(name)}`
    const metadata = (await (await fetch(url)).json()) as { downloadTokens: string }
    const media = `${url}?alt=media&token=${encodeURIComponent(metadata.downloadTokens)}`
    const bytes = Buffer.from(await (await fetch(media)).arrayBuffer()).toString('base64')
    objects.push({ bucket, name, metadata, bytes })
  }
  return { documents, subcollection, objects }
}

/** Google's error shape with the HTTP status as its code. */
function expectGoogleError(status: number, text: string, context: string): void {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error(`${context}: error body is not JSON: ${text.slice(0, 200)}`)
  }
  expect(body, context).toMatchObject({
    error: { code: status, message: expect.any(String), status: expect.stringMatching(/^[A-Z_]+$/) },
  })
}

// Shapes close to real requests, with wrong types and junk in every position.
const junk = fc.oneof(
  fc.anything(),
  fc.string(),
  fc.integer(),
  fc.constant(null),
  fc.array(fc.anything(), { maxLength: 3 }),
)
// Structurally valid targets with junk nested inside: reaches the code past the first checks.
const deepWrite = fc.record(
  {
    update: fc.record({
      name: fc.constant(`${root}/fuzz/other`),
      fields: fc.oneof(fc.constant({}), fc.constant({ a: { integerValue: '1' } }), junk),
    }),
    updateMask: fc.oneof(junk, fc.record({ fieldPaths: fc.oneof(junk, fc.array(junk, { maxLength: 3 })) })),
    updateTransforms: fc.oneof(
      junk,
      fc.array(
        fc.record(
          {
            fieldPath: fc.oneof(fc.string(), junk),
            increment: junk,
            appendMissingElements: junk,
            removeAllFromArray: junk,
            setToServerValue: junk,
            maximum: junk,
          },
          { requiredKeys: [] },
        ),
        { maxLength: 2 },
      ),
    ),
    currentDocument: fc.oneof(junk, fc.record({ exists: junk, updateTime: junk }, { requiredKeys: [] })),
  },
  { requiredKeys: ['update'] },
)
/** Half of the optional parts absent, so one junk part at a time reaches its own check. */
const sparse = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 })
const deepQuery = fc.record(
  {
    from: fc.oneof(fc.constant([{ collectionId: 'fuzz' }]), fc.array(junk, { maxLength: 2 })),
    where: fc.oneof(
      junk,
      fc.record({
        fieldFilter: fc.record(
          { field: fc.oneof(junk, fc.record({ fieldPath: junk })), op: junk, value: junk },
          { requiredKeys: [] },
        ),
      }),
      fc.record({ unaryFilter: fc.record({ field: junk, op: junk }, { requiredKeys: [] }) }),
      fc.record({
        compositeFilter: fc.record({ op: junk, filters: fc.array(junk, { maxLength: 2 }) }, { requiredKeys: [] }),
      }),
    ),
    orderBy: fc.oneof(
      junk,
      fc.array(fc.oneof(junk, fc.record({ field: junk, direction: junk }, { requiredKeys: [] })), { maxLength: 2 }),
    ),
    select: fc.oneof(junk, fc.record({ fields: fc.oneof(junk, fc.array(junk, { maxLength: 2 })) })),
    startAt: fc.oneof(junk, fc.record({ values: fc.oneof(junk, fc.array(junk, { maxLength: 2 })), before: junk })),
    limit: junk,
    offset: junk,
  },
  { requiredKeys: ['from'] },
)

const malformedFirestoreBody = fc.oneof(
  fc.string(),
  fc.record({ writes: fc.array(deepWrite, { minLength: 1, maxLength: 2 }) }),
  fc.record({ structuredQuery: deepQuery }),
  fc.record({
    structuredAggregationQuery: fc.record({
      aggregations: fc.oneof(
        junk,
        fc.array(fc.oneof(junk, fc.record({ alias: junk, count: junk, sum: junk, avg: junk }, { requiredKeys: [] })), {
          maxLength: 2,
        }),
      ),
      structuredQuery: deepQuery,
    }),
  }),
  fc.record(
    {
      writes: fc.oneof(
        junk,
        fc.array(
          fc.record(
            { update: junk, delete: junk, updateMask: junk, updateTransforms: junk, currentDocument: junk },
            { requiredKeys: [] },
          ),
        ),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      documents: fc.oneof(
        junk,
        fc.array(
          fc.oneof(fc.string(), fc.constant(`${root}/fuzz`), fc.constant('projects/x/databases/y/documents/a/b')),
        ),
      ),
      mask: junk,
      transaction: junk,
      newTransaction: junk,
    },
    { requiredKeys: [] },
  ),
  fc.record({
    structuredQuery: fc.oneof(
      junk,
      fc.record(
        { from: junk, where: junk, orderBy: junk, startAt: junk, endAt: junk, limit: junk, offset: junk, select: junk },
        { requiredKeys: [] },
      ),
    ),
  }),
  fc.record({
    structuredAggregationQuery: fc.oneof(
      junk,
      fc.record({ aggregations: junk, structuredQuery: junk }, { requiredKeys: [] }),
    ),
  }),
  fc.record({ transaction: junk, options: junk }, { requiredKeys: [] }),
)
const firestoreRequest = fc.record({
  method: fc.constantFrom('POST', 'GET', 'PATCH', 'DELETE', 'PUT'),
  path: fc.oneof(
    fc.constantFrom(
      ':batchGet',
      ':commit',
      ':runQuery',
      ':runAggregationQuery',
      ':batchWrite',
      ':beginTransaction',
      ':rollback',
      ':listCollectionIds',
      ':nope',
      '/fuzz/seed',
      '/fuzz',
      '/a:runQuery',
      '/%E0%A4%A',
      '/fuzz/seed/x:runQuery',
    ),
    fc.string().map((s) => `/${encodeURIComponent(s)}`),
  ),
  body: malformedFirestoreBody.map((body) => (typeof body === 'string' ? body : (JSON.stringify(body) ?? ''))),
})
const storageRequest = fc.record({
  method: fc.constantFrom('POST', 'GET', 'PATCH', 'DELETE', 'PUT'),
  path: fc.constantFrom(
    '/v0/b/bkt/o',
    '/v0/b/bkt/o/a%2Fb',
    '/b/bkt/o',
    '/upload/storage/v1/b/bkt/o',
    '/storage/v1/b/bkt/o/x',
    '/v0/b/%E0/o',
  ),
  query: fc.constantFrom(
    '',
    '?name=x',
    '?uploadType=multipart&name=y',
    '?uploadType=resumable',
    '?upload_id=nope',
    '?alt=media',
    '?prefix=a&maxResults=-1',
  ),
  contentType: fc.constantFrom(
    'application/json',
    'multipart/related; boundary=abc',
    'multipart/related',
    'text/plain',
  ),
  protocol: fc.constantFrom('', 'multipart', 'resumable'),
  command: fc.constantFrom('', 'start', 'upload, finalize', 'query'),
  body: fc.oneof(
    fc.string(),
    junk.map((value) => JSON.stringify(value) ?? ''),
  ),
})

const deepRequest = fc.oneof(
  fc.record({
    path: fc.constant(':commit'),
    body: fc.record({
      writes: fc.array(
        fc.record({
          update: fc.constant({ name: `${root}/fuzz/other`, fields: { a: { integerValue: '1' } } }),
          updateMask: sparse(
            fc.oneof(junk, fc.record({ fieldPaths: fc.oneof(junk, fc.array(junk, { maxLength: 2 })) })),
          ),
          updateTransforms: sparse(
            fc.oneof(
              junk,
              fc.array(
                fc.oneof(
                  junk,
                  fc.record({
                    fieldPath: fc.oneof(fc.constant('a'), junk),
                    increment: sparse(junk),
                    appendMissingElements: sparse(junk),
                    maximum: sparse(junk),
                    setToServerValue: sparse(junk),
                  }),
                ),
                { maxLength: 2 },
              ),
            ),
          ),
          currentDocument: sparse(fc.oneof(junk, fc.record({ exists: sparse(junk), updateTime: sparse(junk) }))),
        }),
        { minLength: 1, maxLength: 2 },
      ),
    }),
  }),
  fc.record({
    path: fc.constantFrom(':runQuery', ':runAggregationQuery'),
    body: fc.record({
      structuredQuery: fc.record({
        from: fc.constant([{ collectionId: 'fuzz' }]),
        where: sparse(
          fc.oneof(
            junk,
            fc.record({
              fieldFilter: fc.record({
                field: fc.oneof(fc.constant({ fieldPath: 'a' }), junk),
                op: fc.oneof(fc.constantFrom('EQUAL', 'IN', 5, 9), junk),
                value: junk,
              }),
            }),
            fc.record({
              compositeFilter: fc.record({
                op: fc.oneof(fc.constant('AND'), junk),
                filters: fc.array(junk, { maxLength: 2 }),
              }),
            }),
          ),
        ),
        orderBy: sparse(
          fc.oneof(
            junk,
            fc.array(
              fc.oneof(
                junk,
                fc.record({ field: fc.oneof(fc.constant({ fieldPath: 'a' }), junk), direction: sparse(junk) }),
              ),
              { maxLength: 2 },
            ),
          ),
        ),
        select: sparse(fc.oneof(junk, fc.record({ fields: fc.oneof(junk, fc.array(junk, { maxLength: 2 })) }))),
        startAt: sparse(
          fc.oneof(junk, fc.record({ values: fc.oneof(junk, fc.array(junk, { maxLength: 2 })), before: sparse(junk) })),
        ),
        limit: sparse(junk),
        offset: sparse(junk),
      }),
      structuredAggregationQuery: sparse(
        fc.record({
          aggregations: fc.oneof(
            junk,
            fc.array(
              fc.oneof(
                junk,
                fc.record({ alias: sparse(junk), count: sparse(junk), sum: sparse(junk), avg: sparse(junk) }),
              ),
              { maxLength: 2 },
            ),
          ),
          structuredQuery: fc.constant({ from: [{ collectionId: 'fuzz' }] }),
        }),
      ),
    }),
  }),
)

test('malformed parts deep inside otherwise valid commits and queries get 4xx, never 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(deepRequest, async ({ path, body }) => {
      const text = JSON.stringify(body)
      const response = await fetch(`${firestore()}/v1/${root}${path}`, { method: 'POST', body: text })
      const answer = await response.text()
      expect(response.status, `${path} ${text.slice(0, 300)} → ${answer.slice(0, 200)}`).toBeLessThan(500)
    }),
    { numRuns: 1000 },
  )
  // These commits may legitimately write fuzz/other, never the seeded documents.
  expect(await snapshot()).toEqual(before)
}, 120_000)

test('1,000+ malformed requests get 4xx in Google error shape; no 5xx, no crash, data unchanged', async () => {
  let count = 0
  await fc.assert(
    fc.asyncProperty(firestoreRequest, async ({ method, path, body }) => {
      count++
      const response = await fetch(`${firestore()}/v1/${root}${path}`, {
        method,
        body: method === 'GET' ? undefined : body,
      })
      const text = await response.text()
      const context = `${method} ${path} ${body.slice(0, 200)} → ${text.slice(0, 200)}`
      expect(response.status, context).toBeLessThan(500)
      if (response.status >= 400) expectGoogleError(response.status, text, context)
    }),
    { numRuns: 1500 },
  )
  let storageErrors = 0
  await fc.assert(
    fc.asyncProperty(storageRequest, async (request) => {
      count++
      const response = await fetch(`${storage()}${request.path}${request.query}`, {
        method: request.method,
        headers: {
          'content-type': request.contentType,
          ...(request.protocol ? { 'x-goog-upload-protocol': request.protocol } : {}),
          ...(request.command ? { 'x-goog-upload-command': request.command } : {}),
        },
        body: request.method === 'GET' ? undefined : request.body,
      })
      const text = await response.text()
      const context = `${request.method} ${request.path}${request.query} → ${text.slice(0, 200)}`
      expect(response.status, context).toBeLessThan(500)
      if (response.status >= 400) {
        storageErrors++
        expectGoogleError(response.status, text, context)
      }
    }),
    { numRuns: 400 },
  )
  expect(storageErrors).toBeGreaterThan(100)
  const oversized = await fetch(`${firestore()}/v1/${root}:commit`, {
    method: 'POST',
    body: 'x'.repeat(17 * 1024 * 1024),
  })
  expect(oversized.status).toBe(413)
  expectGoogleError(413, await oversized.text(), 'oversized commit')
  expect(count).toBeGreaterThanOrEqual(1000)
  expect(await snapshot()).toEqual(before)
}, 120_000)
