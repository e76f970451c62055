import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

// Malformed and hostile requests with security rules on: never a 5xx, never a crash, and nothing a
// denied client sends changes the data. The rules read the caller's staff document (get()), a
// person document and query constraints, so every part of the evaluator is reached.
const FIRESTORE_RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    function me() { return get(/databases/$(database)/documents/users/$(request.auth.uid)).data; }
    function staffOf(loc) { return request.auth != null && loc in me().locations; }
    match /users/{uid} { allow get: if request.auth.uid == uid; }
    match /persons/{id} {
      allow read: if staffOf(resource.data.locationId);
      allow write: if staffOf(request.resource.data.locationId) && request.resource.data.name is string;
      match /notes/{n} { allow read, write: if staffOf(get(/databases/$(database)/documents/persons/$(id)).data.locationId); }
    }
    match /{path=**}/notes/{n} { allow list: if staffOf(resource.data.locationId) && request.query.limit <= 50; }
  }
}`
const STORAGE_RULES = `rules_version = '2';
service firebase.storage {
  match /b/{bucket}/o {
    match /persons/{id}/{file} {
      allow read: if request.auth != null
        && firestore.get(/databases/(default)/documents/persons/$(id)).data.locationId == 'L1';
      allow write: if request.auth != null && id == 'p1' && request.resource.size < 1024 && request.resource.contentType.matches('image/.*');
    }
  }
}`

const project = 'demo-rules-fuzz'
const root = `projects/${project}/databases/(default)/documents`
let emulator: EmulatorLite
const firestore = () => `http://127.0.0.1:${emulator.firestorePort}`
const storage = () => `http://127.0.0.1:${emulator.storagePort}`
/** The owner credential, believed on the admin listener only. */
const OWNER = { authorization: 'Bearer owner' }
const admin = () => `http://127.0.0.1:${emulator.adminPort}`

const unsigned = (claims: Record<string, unknown>) =>
  `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`

const SEED: Record<string, Record<string, unknown>> = {
  'users/staff1': { locations: { arrayValue: { values: [{ stringValue: 'L1' }] } } },
  'persons/p1': { name: { stringValue: 'A' }, locationId: { stringValue: 'L1' } },
  'persons/p2': { name: { stringValue: 'B' }, locationId: { stringValue: 'L2' } },
  'persons/p2/notes/n1': { text: { stringValue: 'privat' }, locationId: { stringValue: 'L2' } },
}

async function snapshot(): Promise<string> {
  const read = await fetch(`${admin()}/v1/${root}:batchGet`, {
    method: 'POST',
    headers: OWNER,
    body: JSON.stringify({ documents: Object.keys(SEED).map((path) => `${root}/${path}`) }),
  })
  const object = await fetch(`${admin()}/v0/b/bkt/o/${encodeURIComponent('persons/p2/a.png')}?alt=media`, {
    headers: OWNER,
  })
  const list = await fetch(`${admin()}/v1/${root}/persons`, { headers: OWNER })
  return JSON.stringify([
    await read.json(),
    Buffer.from(await object.arrayBuffer()).toString('base64'),
    await list.json(),
  ])
}

let before: string

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rules-fuzz-'))
  writeFileSync(join(dir, 'firestore.rules'), FIRESTORE_RULES)
  writeFileSync(join(dir, 'storage.rules'), STORAGE_RULES)
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    inMemory: true,
    // The fuzz speaks in mock tokens (rules-unit-testing's kind): what the rules make of claims, not
    // whether a token is signed (that is test/identity.int.test.ts).
    acceptUnsignedTokens: true,
    firestoreRules: join(dir, 'firestore.rules'),
    storageRules: join(dir, 'storage.rules'),
  })
  const seeded = await fetch(`${admin()}/v1/${root}:commit`, {
    method: 'POST',
    headers: OWNER,
    body: JSON.stringify({
      writes: Object.entries(SEED).map(([path, fields]) => ({ update: { name: `${root}/${path}`, fields } })),
    }),
  })
  expect(seeded.status).toBe(200)
  const upload = await fetch(`${admin()}/v0/b/bkt/o?name=${encodeURIComponent('persons/p2/a.png')}`, {
    method: 'POST',
    headers: { ...OWNER, 'content-type': 'image/png' },
    body: Buffer.from('png'),
  })
  expect(upload.status).toBe(200)
  before = await snapshot()
  expect(before).toContain('privat')
})

afterAll(() => emulator?.close())

// Callers that are never allowed to write: no token, garbage, tokens without a staff document
// (whatever claims they carry), and a staff member of L1 whose writes all target L2 or bad data.
const authorization = fc.oneof(
  fc.constant(undefined),
  fc.constant('Bearer'),
  fc.constant('Basic dXNlcjpwYXNz'),
  fc.string({ maxLength: 40 }).map((junk) => `Bearer ${junk}`),
  fc.string({ maxLength: 40 }).map((junk) => `Firebase ${junk}`),
  fc.constant(`Bearer ${Buffer.from('x').toString('base64url')}.e30.`),
  fc
    .record({
      sub: fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)),
      admin: fc.oneof(fc.boolean(), fc.string()),
      locations: fc.array(fc.string({ maxLength: 3 })),
    })
    .map((claims) => `Bearer ${unsigned(claims)}`),
  fc.constant(`Bearer ${unsigned({ sub: 'staff1' })}`),
)

const value = fc.oneof(
  fc.string({ maxLength: 5 }).map((s) => ({ stringValue: s })),
  fc.integer().map((n) => ({ integerValue: String(n) })),
  fc.constant({ nullValue: null }),
  fc.constant({ mapValue: {} }),
  fc.constant({ arrayValue: { values: [{ stringValue: 'L1' }] } }),
  fc.constant({ bogus: 1 }),
  fc.anything(),
)
const path = fc.constantFrom('persons/p1', 'persons/p2', 'persons/p2/notes/n1', 'users/staff1', 'persons/new', 'x/y')
const filter = fc.oneof(
  fc.record({
    fieldFilter: fc.record({
      field: fc.record({ fieldPath: fc.constantFrom('locationId', 'name', '__name__', '') }),
      op: fc.constantFrom('EQUAL', 'IN', 'NOT_IN', 'ARRAY_CONTAINS', 'LESS_THAN', 'BOGUS', 5),
      value,
    }),
  }),
  fc.record({
    compositeFilter: fc.record({
      op: fc.constantFrom('AND', 'OR', 'XOR'),
      filters: fc.array(fc.anything(), { maxLength: 3 }),
    }),
  }),
  fc.anything(),
)

const request = fc.oneof(
  fc.record({
    kind: fc.constant('commit' as const),
    writes: fc.array(
      fc.oneof(
        fc.record({
          update: fc.record({
            name: path.map((p) => `${root}/${p}`),
            fields: fc.dictionary(fc.constantFrom('name', 'locationId', 'text', 'locations'), value),
          }),
          updateMask: fc.option(fc.record({ fieldPaths: fc.array(fc.constantFrom('name', 'locationId', 'x.y')) })),
        }),
        path.map((p) => ({ delete: `${root}/${p}` })),
        fc.anything(),
      ),
      { maxLength: 4 },
    ),
  }),
  fc.record({
    kind: fc.constant('runQuery' as const),
    parent: fc.constantFrom('', '/persons/p2'),
    structuredQuery: fc.record({
      from: fc.array(
        fc.record({ collectionId: fc.constantFrom('persons', 'notes', 'users'), allDescendants: fc.boolean() }),
        { maxLength: 2 },
      ),
      where: fc.option(filter),
      limit: fc.option(fc.oneof(fc.integer({ min: -1, max: 100 }), fc.anything())),
    }),
  }),
  fc.record({
    kind: fc.constant('batchGet' as const),
    documents: fc.array(
      path.map((p) => `${root}/${p}`),
      { maxLength: 3 },
    ),
  }),
  fc.record({
    kind: fc.constant('upload' as const),
    name: fc.constantFrom('persons/p1/a.png', 'persons/p2/a.png', 'other/x'),
    contentType: fc.constantFrom('image/png', 'text/plain', ''),
    size: fc.integer({ min: 0, max: 2048 }),
  }),
  fc.record({
    kind: fc.constant('download' as const),
    name: fc.constantFrom('persons/p2/a.png', 'persons/p1/none.png'),
  }),
)

async function send(
  header: string | undefined,
  input: fc.Arbitrary<unknown> extends never ? never : Record<string, unknown>,
) {
  const headers: Record<string, string> = header === undefined ? {} : { authorization: header }
  switch (input.kind) {
    case 'commit':
      return fetch(`${firestore()}/v1/${root}:commit`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ writes: input.writes }),
      })
    case 'runQuery':
      return fetch(`${firestore()}/v1/${root}${input.parent}:runQuery`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ structuredQuery: input.structuredQuery }),
      })
    case 'batchGet':
      return fetch(`${firestore()}/v1/${root}:batchGet`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ documents: input.documents }),
      })
    case 'upload':
      return fetch(`${storage()}/v0/b/bkt/o?name=${encodeURIComponent(String(input.name))}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': String(input.contentType) },
        body: Buffer.alloc(Number(input.size)),
      })
    default:
      return fetch(`${storage()}/v0/b/bkt/o/${encodeURIComponent(String(input.name))}?alt=media`, { headers })
  }
}

test('malformed and hostile requests with rules on never answer 5xx and change nothing they may not', async () => {
  let sent = 0
  const statuses = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(authorization, request, async (header, input) => {
      const response = await send(header, input as Record<string, unknown>)
      await response.arrayBuffer()
      sent += 1
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      // Allowed: a staff member of L1 writing a valid L1 person, or uploading under persons/p1.
      return response.status < 500
    }),
    { numRuns: 1500 },
  )
  expect(sent).toBe(1500)
  // Both refusals and bad-request answers were reached, so the property saw the rules at work.
  expect(statuses.get(403) ?? 0).toBeGreaterThan(100)
  expect(statuses.get(400) ?? 0).toBeGreaterThan(10)
  // Nothing the fuzz could reach with permission touches p2 (L2), its note, its avatar or the staff document.
  const protectedDocs = (snapshot: { found?: { name: string } }[]) =>
    snapshot.map((element) => element.found).filter((found) => found && /persons\/p2|users\/staff1/.test(found.name))
  const after = JSON.parse(await snapshot())
  const original = JSON.parse(before)
  expect(protectedDocs(original[0])).toHaveLength(3)
  expect(protectedDocs(after[0])).toEqual(protectedDocs(original[0]))
  expect(after[1]).toBe(original[1])
})

test('the same hostile requests with a person or note of another location are each refused', async () => {
  const staff1 = `Bearer ${unsigned({ sub: 'staff1' })}`
  const denied = [
    await send(staff1, { kind: 'batchGet', documents: [`${root}/persons/p2`] }),
    await send(staff1, { kind: 'runQuery', parent: '', structuredQuery: { from: [{ collectionId: 'persons' }] } }),
    await send(staff1, {
      kind: 'runQuery',
      parent: '',
      structuredQuery: {
        from: [{ collectionId: 'notes', allDescendants: true }],
        where: { fieldFilter: { field: { fieldPath: 'locationId' }, op: 'EQUAL', value: { stringValue: 'L1' } } },
      },
    }),
    await send(staff1, { kind: 'commit', writes: [{ delete: `${root}/persons/p2` }] }),
    await send(staff1, { kind: 'download', name: 'persons/p2/a.png' }),
  ]
  expect(denied.map((response) => response.status)).toEqual([403, 403, 403, 403, 403])
  const body = (await denied[0]?.json()) as { error: { code: number; status: string; message: string } }
  expect(body.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' })
  expect(body.error.message).toMatch(/^Missing or insufficient permissions/)
})
