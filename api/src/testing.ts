// Helpers for the api's integration tests: real Auth emulator and emulator-lite (the integration
// global setup exports their hosts), real ID tokens from the Auth emulator's REST sign-in.

import { randomUUID } from 'node:crypto'
import { createServer as createHttpServer } from 'node:http'
import { connect, createServer, type Socket } from 'node:net'
import type { UserRole } from '@bosted/domain'
import { userPath } from '@bosted/domain/paths'
import { freePort } from '@bosted/stack/ports'
import { type App, createApp } from './app.ts'
import { appConfigFromEnv, type Env, readEnv } from './env.ts'
import { createFirebase, type Firebase } from './lib/firebase.ts'
import { emulatorKeySource, TokenVerifier } from './lib/token-verifier.ts'
import type { AppConfig } from './lib/types.ts'

export const PASSWORD = 'secret123'
/** Requests in tests come from the native stack's origin unless a test says otherwise. */
export const BASE_URL = 'http://127.0.0.1'

export type TestApi = { app: App; firebase: Firebase; env: Env; close(): Promise<void> }

/**
 * An app on the Auth emulator's own project (the only one its sign-in endpoints serve) and the
 * test file's Firestore project, so files do not see each other's documents.
 */
export function createTestApi(firestoreProjectId: string, config: Partial<AppConfig> = {}): TestApi {
  const env = readEnv()
  const firebase = createFirebase({
    projectId: env.FIREBASE_PROJECT_ID,
    firestoreProjectId,
    useFirestoreEmulator: true,
  })
  const app = createApp({ firebase, config: { ...appConfigFromEnv(env), ...config } })
  return { app, firebase, env, close: () => firebase.close() }
}

/**
 * A token verifier of its own against emulator-lite's published keys and Auth's user records: what
 * Auth itself says of a token or cookie, past any cache of the app under test.
 */
export function independentVerifier(api: TestApi): TokenVerifier {
  const host = api.env.FIREBASE_AUTH_EMULATOR_HOST
  if (!host) throw new Error('the integration tests run against the Auth emulator')
  return new TokenVerifier({
    projectId: api.firebase.projectId,
    keys: emulatorKeySource(host),
    getUser: (uid) => api.firebase.auth.getUser(uid),
    // As the app: the official Auth emulator's tokens are unsigned.
    acceptUnsignedTokens: api.env.ACCEPT_UNSIGNED_TOKENS === 'true',
  })
}

export type TestUser = { uid: string; email: string; password: string }

/** An Auth user with a unique email; with `userRole`, also a users/{uid} document and matching claims. */
export async function createTestUser(
  firebase: Firebase,
  options: { userRole?: UserRole; locations?: string[]; displayName?: string } = {},
): Promise<TestUser> {
  const email = `${randomUUID()}@api-test.dk`
  const record = await firebase.auth.createUser({
    email,
    password: PASSWORD,
    displayName: options.displayName ?? 'Test Bruger',
  })
  if (options.userRole) {
    const admin = options.userRole === 'admin'
    await firebase.auth.setCustomUserClaims(record.uid, { admin, userRole: options.userRole })
    await firebase.db.doc(userPath(record.uid)).set({
      id: record.uid,
      firstName: 'Test',
      lastName: 'Bruger',
      createdAt: new Date().toISOString(),
      locations: options.locations ?? [],
      userRole: options.userRole,
    })
  }
  return { uid: record.uid, email, password: PASSWORD }
}

/** Signs in through the Auth emulator's REST API, as the web's Firebase SDK does; returns the ID token. */
export async function signIn(env: Env, user: { email: string; password: string }): Promise<string> {
  const response = await fetch(
    `http://${env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password, returnSecureToken: true }),
    },
  )
  const body = (await response.json()) as { idToken?: string }
  if (!body.idToken) throw new Error(`sign-in failed: ${JSON.stringify(body)}`)
  return body.idToken
}

type RequestOptions = { body?: unknown; cookie?: string; headers?: Record<string, string>; url?: string }

/** One request to the app; a non-string body is sent as JSON. */
export function call(app: App, method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.cookie) headers.cookie = options.cookie
  let body: string | undefined
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
    headers['content-type'] ??= 'application/json'
  }
  return Promise.resolve(app.request(`${options.url ?? BASE_URL}${path}`, { method, headers, body }))
}

/** `name=value` pairs of a response's Set-Cookie headers, and the raw headers by name. */
export function cookiesOf(response: Response): { values: Record<string, string>; raw: Record<string, string> } {
  const values: Record<string, string> = {}
  const raw: Record<string, string> = {}
  for (const header of response.headers.getSetCookie()) {
    const [pair = ''] = header.split(';')
    const index = pair.indexOf('=')
    const name = pair.slice(0, index)
    values[name] = decodeURIComponent(pair.slice(index + 1))
    raw[name] = header
  }
  return { values, raw }
}

let loginCount = 0

export type Session = { uid: string; session: string; cookie: string }

/** Signs in and logs in through the api; `cookie` is a Cookie header carrying session and userId. */
export async function loginAs(api: TestApi, user: TestUser): Promise<Session> {
  const response = await call(api.app, 'POST', '/api/auth/login', {
    body: { idToken: await signIn(api.env, user) },
    // Each login from its own address: tests of the login rate limit set it low.
    headers: { 'x-real-ip': `198.51.100.${(loginCount++ % 250) + 1}` },
  })
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`)
  const { values } = cookiesOf(response)
  const session = values.session
  if (!session) throw new Error('login set no session cookie')
  return { uid: user.uid, session, cookie: `session=${session}; userId=${user.uid}` }
}

/** The payload of a JWT, not verified. */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))
}

/** Hand-made `alg:none` token, as the emulators issue them. */
export function unsignedJwt(payload: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload)}.`
}

/** `127.0.0.1:port` of a port that was free a moment ago: nothing answers there (connection refused). */
export const closedPortHost = async (): Promise<string> => `127.0.0.1:${await freePort()}`

/**
 * A TCP hop in front of `target` (`host:port`) that can be cut: `close()` drops every open
 * connection and stops listening, so whoever was sent to `host` meets a refused connection, as
 * when the service behind it goes away.
 */
export async function cuttableProxy(target: string): Promise<{ host: string; close(): Promise<void> }> {
  const [targetHost = '127.0.0.1', targetPort = ''] = target.split(/:(?=\d+$)/)
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server = createServer((client) => {
    const upstream = connect(Number(targetPort), targetHost)
    track(client)
    track(upstream)
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return {
    host: `127.0.0.1:${typeof address === 'object' && address ? address.port : 1}`,
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve))
      for (const socket of sockets) socket.destroy()
      await closed
    },
  }
}

/**
 * Headers of cookie-authenticated writes from another site, as browsers send them: an Origin of
 * another site, Sec-Fetch-Site alone or with it, a same-site look-alike host, and the opaque 'null'.
 */
export const CROSS_SITE_HEADERS: readonly Record<string, string>[] = [
  { origin: 'https://evil.example' },
  { 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
  { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1.evil.example' },
  { origin: 'null' },
]
export const CROSS_SITE_ERROR = { code: 'cross_site', message: 'Forespørgslen blev afvist af sikkerhedshensyn.' }

/**
 * An HTTP hop in front of Firestore (`host:port`) that behaves like a backend on a full disk: reads
 * pass through, every write (commit, batchWrite, document PATCH/DELETE/create) is refused with
 * 429 RESOURCE_EXHAUSTED, as emulator-lite and Firestore answer it. With `slowWritesMs`, like a
 * backend on a slow disk instead: each write is passed on after that long.
 */
export async function fullDiskFirestore(
  target: string,
  { slowWritesMs }: { slowWritesMs?: number } = {},
): Promise<{ host: string; close(): Promise<void> }> {
  const server = createHttpServer(async (request, response) => {
    const url = request.url ?? '/'
    const isWrite =
      /:(commit|batchWrite)\b/.test(url) ||
      request.method === 'PATCH' ||
      request.method === 'DELETE' ||
      (request.method === 'POST' && /\/documents\/[^:]+$/.test(url.split('?')[0] ?? ''))
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    if (isWrite && slowWritesMs !== undefined) await new Promise((resolve) => setTimeout(resolve, slowWritesMs))
    else if (isWrite) {
      response.writeHead(429, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({ error: { code: 429, message: 'database or disk is full', status: 'RESOURCE_EXHAUSTED' } }),
      )
      return
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
      ),
    )
    const upstream = await fetch(`http://${target}${url}`, {
      method: request.method ?? 'GET',
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    })
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
    response.end(Buffer.from(await upstream.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return {
    host: `127.0.0.1:${typeof address === 'object' && address ? address.port : 1}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** A Firebase handle (Auth as usual) whose Firestore is reached through `firestoreHost`. */
export function firebaseThrough(firestoreHost: string, firestoreProjectId: string): Firebase {
  const original = process.env.FIRESTORE_EMULATOR_HOST
  // firebase-admin reads the emulator host when the client is created.
  process.env.FIRESTORE_EMULATOR_HOST = firestoreHost
  try {
    return createFirebase({ projectId: readEnv().FIREBASE_PROJECT_ID, firestoreProjectId, useFirestoreEmulator: true })
  } finally {
    process.env.FIRESTORE_EMULATOR_HOST = original
  }
}
