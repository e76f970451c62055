import type { AddressInfo } from 'node:net'
import { ERROR_CODES } from '@bosted/domain'
import { type ServerType, serve } from '@hono/node-server'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  createTestApi,
  createTestUser,
  independentVerifier,
  loginAs,
  type Session,
  signIn,
  type TestApi,
  type TestUser,
} from './testing.ts'

let api: TestApi
let server: ServerType
let base: string
let staff: Session
let admin: Session
let superuser: TestUser

beforeAll(async () => {
  api = createTestApi('demo-api-fuzz', { loginRateLimit: { max: 100_000, windowMs: 60_000 } })
  superuser = await createTestUser(api.firebase, { userRole: 'superuser', locations: ['fuzz'] })
  staff = await loginAs(api, superuser)
  admin = await loginAs(api, await createTestUser(api.firebase, { userRole: 'admin' }))
  server = serve({ fetch: api.app.fetch, hostname: '127.0.0.1', port: 0 })
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await api.close()
})

const ROUTES = [
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/validate'],
  ['POST', '/api/auth/refresh'],
  ['POST', '/api/auth/logout'],
  ['GET', '/api/user/getUserById'],
  ['POST', '/api/user/create'],
  ['PUT', '/api/user/{id}/role'],
  ['GET', '/api/health'],
  ['PUT', '/api/person/{id}/location'],
  ['PUT', '/api/person/{id}/disabled'],
  ['GET', '/api/person/{id}/access-log'],
  ['GET', '/api/person/{id}/export'],
  ['GET', '/api/access-log/verify'],
  ['GET', '/api/statistics'],
] as const

/** `common` four times out of five, otherwise something from `rare`. */
const usually = <T, U>(common: T, rare: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: fc.constant(common), weight: 4 }, { arbitrary: rare, weight: 1 })

// Values of the right shape with junk inside, and junk of every shape.
const junk = fc.oneof(
  fc.anything(),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.integer(),
  fc.constant(null),
  fc.array(fc.anything(), { maxLength: 3 }),
)
const jsonBody = fc.oneof(
  fc.record(
    {
      idToken: junk,
      token: junk,
      email: fc.oneof(junk, fc.emailAddress()),
      password: junk,
      displayName: junk,
      avatarUrl: fc.oneof(junk, fc.webUrl()),
      userRole: fc.oneof(junk, fc.constantFrom('user', 'employee', 'superuser', 'admin')),
      admin: junk,
      locationId: junk,
      disabled: junk,
      __proto__: junk,
      constructor: junk,
    },
    { requiredKeys: [] },
  ),
  junk,
)
const rawBody = fc.oneof(
  jsonBody.map((value) => JSON.stringify(value) ?? ''),
  fc.string(),
  fc.constantFrom('{', '[', '{"idToken":', 'null', '"x"', '\u0000', '{"a":1}{', '\uFEFF{}'),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  // Just over the 16 KiB limit and beyond.
  fc.nat({ max: 20_000 }).map((extra) => JSON.stringify({ idToken: 'x'.repeat(16 * 1024 + extra) })),
)
const cookieHeader = fc.oneof(
  fc.constant(undefined),
  fc.constant('staff'),
  fc.constant('admin'),
  fc.string().map((value) => `session=${value}`),
  fc.constantFrom('session=', 'session=%', 'session=%E0%A4%A', 'session="', 'session=a.b.c; userId=x', '=;=;'),
)
const request = fc.record({
  route: fc.constantFrom(...ROUTES),
  method: usually(null, fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH')),
  id: fc.oneof(fc.string(), fc.constantFrom('..', '.', '%2F', 'a/b', '__x__', 'x'.repeat(200))),
  query: fc.oneof(
    fc.constant(''),
    fc.string().map((value) => `?id=${encodeURIComponent(value)}`),
    fc.constantFrom('?id=', '?id=a&id=b', '?id=%', '?x=1', `?id=${'y'.repeat(300)}`),
    fc
      .record({
        from: fc.oneof(fc.string(), fc.constantFrom('2026-11-01', '2026-02-30', '')),
        to: fc.oneof(fc.string(), fc.constantFrom('2026-11-30', '1999-01-01')),
        operation: fc.oneof(fc.string(), fc.constantFrom('get', 'list', 'export', 'viewLog')),
        pageSize: fc.oneof(fc.string(), fc.integer()),
        pageToken: fc.oneof(fc.string(), fc.constantFrom('1', '99999999999999999999', '-1')),
        actor: fc.string(),
      })
      .map(
        (query) => `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
      ),
  ),
  body: fc.oneof(rawBody, fc.constant(null)),
  contentType: fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/x-www-form-urlencoded'),
  cookie: cookieHeader,
  origin: usually(undefined, fc.constantFrom('https://evil.example', 'null', 'http://127.0.0.1')),
})

test('at least 600 malformed requests across every call: no 5xx, always the error shape, server stays up', async () => {
  let count = 0
  const statuses = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(request, async (input) => {
      count += 1
      const [routeMethod, routePath] = input.route
      const method = input.method ?? routeMethod
      const path = routePath.replace('{id}', encodeURIComponent(input.id))
      const headers: Record<string, string> = {}
      if (input.contentType) headers['content-type'] = input.contentType
      if (input.origin) headers.origin = input.origin
      // Logout calls get a throwaway cookie instead of the shared sessions', so the run never logs them
      // out (logging them out would turn the rest of it into 401s; logout has its own tests).
      const isLogout = path === '/api/auth/logout'
      if (input.cookie === 'staff') headers.cookie = isLogout ? 'session=x' : staff.cookie
      else if (input.cookie === 'admin') headers.cookie = isLogout ? 'session=y' : admin.cookie
      else if (input.cookie !== undefined) headers.cookie = input.cookie
      const hasBody = input.body !== null && method !== 'GET'
      const response = await fetch(`${base}${path}${input.query}`, {
        method,
        headers,
        ...(hasBody ? { body: input.body as string } : {}),
      })
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      const text = await response.text()
      expect(response.status, `${method} ${path} → ${text}`).toBeLessThan(500)
      if (response.status >= 400) {
        const body = JSON.parse(text) as { error: { code: string; message: string } }
        expect(ERROR_CODES).toContain(body.error.code)
        expect(body.error.message).toEqual(expect.any(String))
        expect(text).not.toMatch(/\bat .*\.ts:\d+/)
      }
    }),
    { numRuns: 600, seed: 4242 },
  )
  expect(count).toBeGreaterThanOrEqual(600)
  // The run reached past validation into the handlers, not only the 4xx gates.
  expect(statuses.get(200) ?? 0).toBeGreaterThan(20)

  // Every gate was reached, not only one of them.
  for (const status of [400, 401, 403, 404, 413]) expect(statuses.get(status) ?? 0, `${status}s`).toBeGreaterThan(0)

  // The server is still up and healthy…
  const health = await fetch(`${base}/api/health`)
  expect(health.status).toBe(200)
  // …the known-good sessions the run used survived it, in this instance and in Auth itself…
  for (const session of [staff, admin]) {
    const validate = await fetch(`${base}/api/auth/validate`, { method: 'POST', headers: { cookie: session.cookie } })
    expect(await validate.json()).toEqual({ isValid: true })
    await expect(independentVerifier(api).verifySessionCookie(session.session)).resolves.toMatchObject({
      uid: session.uid,
    })
  }
  // …and a new sign-in works end to end over HTTP.
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ idToken: await signIn(api.env, superuser) }),
  })
  expect(login.status).toBe(200)
  const cookie = login.headers.getSetCookie().map((header) => header.split(';')[0])
  const validate = await fetch(`${base}/api/auth/validate`, { method: 'POST', headers: { cookie: cookie.join('; ') } })
  expect(await validate.json()).toEqual({ isValid: true })
}, 240_000)
