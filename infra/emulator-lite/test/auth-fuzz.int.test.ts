import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

const PROJECT = 'demo-auth-fuzz'
const IT = '/identitytoolkit.googleapis.com/v1'
let emulator: EmulatorLite
// The admin listener: the owner credential is believed there, so the fuzz reaches every operation.
const base = () => `http://127.0.0.1:${emulator.adminPort}`

/** Every route that changes or reads accounts, with the field it reads first (a garbage token goes there). */
const ROUTES: { method: string; path: string; tokenField: string }[] = [
  { method: 'POST', path: `${IT}/accounts:signUp`, tokenField: 'idToken' },
  { method: 'POST', path: `${IT}/accounts:signInWithPassword`, tokenField: 'email' },
  { method: 'POST', path: `${IT}/accounts:signInWithCustomToken`, tokenField: 'token' },
  { method: 'POST', path: `${IT}/accounts:lookup`, tokenField: 'idToken' },
  { method: 'POST', path: `${IT}/accounts:update`, tokenField: 'idToken' },
  { method: 'POST', path: `${IT}/accounts:delete`, tokenField: 'idToken' },
  { method: 'POST', path: `${IT}/projects/${PROJECT}/accounts`, tokenField: 'phoneNumber' },
  { method: 'POST', path: `${IT}/projects/${PROJECT}/accounts:update`, tokenField: 'localId' },
  { method: 'POST', path: `${IT}/projects/${PROJECT}/accounts:delete`, tokenField: 'localId' },
  { method: 'POST', path: `${IT}/projects/${PROJECT}/accounts:lookup`, tokenField: 'localId' },
  { method: 'POST', path: `${IT}/projects/${PROJECT}/accounts:batchCreate`, tokenField: 'users' },
  { method: 'POST', path: `${IT}/projects/${PROJECT}/accounts:batchDelete`, tokenField: 'localIds' },
  { method: 'POST', path: `${IT}/projects/${PROJECT}/accounts:query`, tokenField: 'expression' },
  { method: 'POST', path: `${IT}/projects/${PROJECT}:createSessionCookie`, tokenField: 'idToken' },
  { method: 'POST', path: '/securetoken.googleapis.com/v1/token', tokenField: 'refreshToken' },
  { method: 'POST', path: '/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword', tokenField: 'email' },
  { method: 'PATCH', path: `/emulator/v1/projects/${PROJECT}/config`, tokenField: 'signIn' },
  { method: 'PATCH', path: `/identitytoolkit.googleapis.com/v2/projects/${PROJECT}/config`, tokenField: 'signIn' },
]

const FIELDS = [
  'idToken',
  'localId',
  'email',
  'password',
  'displayName',
  'photoUrl',
  'token',
  'refreshToken',
  'grantType',
  'customAttributes',
  'disableUser',
  'validSince',
  'users',
  'localIds',
  'validDuration',
  'signIn',
  'emailPrivacyConfig',
  'deleteAttribute',
  'phoneNumber',
  'targetProjectId',
]

/** Values of a type no field above accepts (objects, arrays of objects, booleans where strings go). */
const wrongType = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 }),
  fc
    .array(fc.object({ maxDepth: 1 }), { minLength: 1, maxLength: 3 })
    .map((items) => items.map((item) => ({ x: item }))),
)

const credential = fc.constantFrom<Record<string, string>>(
  { key: 'fake-api-key' },
  { authorization: 'Bearer owner' },
  { authorization: 'Bearer garbage' },
  { authorization: 'owner' },
  {},
)

/** One malformed request: a body no operation can act on, whatever the credential. */
const malformed = fc.record({
  route: fc.constantFrom(...ROUTES),
  credential,
  body: fc.oneof(
    // Not JSON at all, or truncated JSON.
    fc
      .string({ minLength: 1, maxLength: 60 })
      .map((text) => `{${text}`)
      .filter((text) => !parses(text))
      .map((text) => ({ contentType: 'application/json', text })),
    // JSON that is not an object.
    fc
      .oneof(fc.array(fc.jsonValue({ maxDepth: 1 })), fc.string(), fc.integer(), fc.constant(null))
      .map((value) => ({ contentType: 'application/json', text: JSON.stringify(value) })),
    // A content type Identity Toolkit refuses, with a non-empty body.
    fc
      .constantFrom('text/plain', 'application/xml', 'multipart/form-data', 'application/jsonx')
      .map((contentType) => ({ contentType, text: '{"email":"a@b.c","password":"hemmelig"}' })),
    // Fields with the wrong type, including the one each operation reads first.
    fc.dictionary(fc.constantFrom(...FIELDS), wrongType, { minKeys: 1, maxKeys: 6 }).map((fields) => ({
      contentType: 'application/json',
      wrongTypes: fields,
    })),
    // A garbage string where a token, id or email goes.
    fc
      .string({ maxLength: 80 })
      .filter((text) => !text.trimStart().startsWith('{'))
      .map((text) => ({ contentType: 'application/json', garbage: `x${text}` })),
  ),
  query: fc.oneof(
    fc.constant(''),
    fc.constant('?key='),
    fc.string({ maxLength: 20 }).map((q) => `?${encodeURIComponent(q)}`),
  ),
})

function parses(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

type Malformed = typeof malformed extends fc.Arbitrary<infer T> ? T : never

function requestOf(sample: Malformed): { url: string; init: RequestInit } {
  const { route, credential: cred, body } = sample
  const headers: Record<string, string> = { 'content-type': body.contentType }
  if (cred.authorization) headers.authorization = cred.authorization
  const query = cred.key ? `?key=${cred.key}${sample.query.replace('?', '&')}` : sample.query
  let text: string | undefined
  if ('text' in body) text = body.text
  else if ('wrongTypes' in body) {
    // The field each operation reads first always carries a wrong type too.
    const first = route.tokenField === 'signIn' ? { allowDuplicateEmails: { not: 'a boolean' } } : { not: 'a string' }
    text = JSON.stringify({ ...body.wrongTypes, [route.tokenField]: first })
  } else if ('garbage' in body) {
    const garbage =
      route.tokenField === 'users' || route.tokenField === 'localIds' ? [{ x: body.garbage }] : body.garbage
    text = JSON.stringify(
      route.path.endsWith('/token')
        ? { grant_type: 'refresh_token', refresh_token: body.garbage }
        : route.tokenField === 'email'
          ? { email: body.garbage, password: body.garbage }
          : route.tokenField === 'signIn'
            ? { signIn: { allowDuplicateEmails: body.garbage } }
            : { [route.tokenField]: garbage },
    )
  }
  return {
    url: `${base()}${route.path}${query}`,
    init: { method: route.method, headers, body: route.method === 'GET' ? undefined : text },
  }
}

async function accounts(): Promise<unknown> {
  const response = await fetch(`${base()}${IT}/projects/${PROJECT}/accounts:batchGet?maxResults=-1`, {
    headers: { authorization: 'Bearer owner' },
  })
  const config = await fetch(`${base()}/emulator/v1/projects/${PROJECT}/config`)
  return { users: ((await response.json()) as { users: unknown[] }).users, config: await config.json() }
}

let before: unknown

beforeAll(async () => {
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    inMemory: true,
    authProjectId: PROJECT,
  })
  for (const [uid, email] of [
    ['fuzz-a', 'a@example.dk'],
    ['fuzz-b', 'b@example.dk'],
  ]) {
    const response = await fetch(`${base()}${IT}/projects/${PROJECT}/accounts`, {
      method: 'POST',
      headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
      body: JSON.stringify({ localId: uid, email, password: 'hemmelig1', displayName: uid }),
    })
    expect(response.status).toBe(200)
  }
  before = await accounts()
  expect(JSON.stringify(before)).toContain('"localId":"fuzz-b"')
})
afterAll(() => emulator?.close())

test('1,500 malformed Auth requests get no 5xx, are refused in the official error envelope and change no account', async () => {
  let sent = 0
  let refused = 1500
  await fc.assert(
    fc.asyncProperty(malformed, async (sample) => {
      const { url, init } = requestOf(sample)
      const response = await fetch(url, init)
      const body = (await response.json()) as { error?: { code?: number; message?: unknown } }
      sent += 1
      // A few are harmless reads the official emulator also answers (an owner lookup ignores idToken).
      expect(response.status, `${init.method} ${url} ${String(init.body)}`).toBeLessThan(500)
      if (response.status >= 400) {
        expect(body.error?.code).toBe(response.status)
        expect(typeof body.error?.message).toBe('string')
      } else refused -= 1
    }),
    { numRuns: 1500, seed: 20 },
  )
  expect(sent).toBe(1500)
  expect(refused).toBeGreaterThan(1400)
  expect(await accounts()).toEqual(before)
  // Still serving: a real sign-in works after the barrage.
  const signIn = await fetch(`${base()}${IT}/accounts:signInWithPassword?key=k`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'a@example.dk', password: 'hemmelig1' }),
  })
  expect(signIn.status).toBe(200)
}, 120_000)
