import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import type { AccessRecorder } from '../audit/recorder.ts'
import { type CoreDeps, createCoreApp, jsonResponse, type Listener, type Route } from './core.ts'
import { ApiError } from './errors.ts'
import { nodeListener } from './listener.ts'
import { readBody } from './server.ts'

// The core's middleware with a made-up route table, served over real HTTP (the handlers use the raw
// node bindings). What a route may forget, the core must not.
const written: string[] = []
const recorder = { isActive: true } as unknown as AccessRecorder
const record = (name: string) => () => {
  written.push(name)
}

const TABLE: Route[] = [
  {
    name: 'test.forgetsRules',
    method: 'GET',
    path: '/forgets',
    service: 'firestore',
    rules: 'firestore',
    handler: (c) => {
      c.get('access').add(record('forgets'))
      return jsonResponse(c, 200, { leaked: true })
    },
  },
  {
    name: 'test.decides',
    method: 'GET',
    path: '/decides',
    service: 'firestore',
    rules: 'firestore',
    handler: (c) => {
      c.set('rulesDecided', true)
      c.get('access').add(record('decides'))
      return jsonResponse(c, 200, { ok: true })
    },
  },
  {
    name: 'test.deniedAfterRecording',
    method: 'GET',
    path: '/denied',
    service: 'firestore',
    rules: 'firestore',
    handler: (c) => {
      c.set('rulesDecided', true)
      c.get('access').add(record('denied'))
      throw new ApiError('PERMISSION_DENIED', 'no')
    },
  },
  {
    name: 'test.crashes',
    method: 'GET',
    path: '/crashes',
    service: 'firestore',
    handler: () => {
      throw new TypeError('secret internals')
    },
  },
  {
    name: 'test.upload',
    method: 'POST',
    path: '/upload',
    service: 'storage',
    handler: async (c) => jsonResponse(c, 200, { size: (await readBody(c.env.incoming)).length }),
  },
  {
    name: 'test.manage',
    method: 'DELETE',
    path: '/manage',
    service: 'firestore',
    management: true,
    handler: (c) => jsonResponse(c, 200, { privileged: c.get('caller').privileged }),
  },
]

const deps: CoreDeps = {
  verifyIdToken: (token) => (token === 'good.token.x' ? { uid: 'u1', token: { sub: 'u1' } } : null),
  adminSecret: 'elsec_test',
  recorder,
  rulesActive: () => true,
}

const servers = new Map<Listener, Server>()
const base = (listener: Listener) =>
  `http://127.0.0.1:${((servers.get(listener) as Server).address() as AddressInfo).port}`

beforeAll(async () => {
  for (const listener of ['firestore', 'admin'] as const) {
    const server = createServer(nodeListener(createCoreApp(listener, [TABLE], deps)))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    servers.set(listener, server)
  }
})
afterAll(async () => {
  for (const server of servers.values()) await new Promise((resolve) => server.close(resolve))
})

test('a data route that answers without a rules decision fails closed, and logs nothing', async () => {
  written.length = 0
  const response = await fetch(`${base('firestore')}/forgets`)
  expect(response.status).toBe(500)
  expect(await response.json()).toEqual({ error: { code: 500, message: expect.any(String), status: 'INTERNAL' } })
  expect(written).toEqual([])
  const decided = await fetch(`${base('firestore')}/decides`)
  expect(decided.status).toBe(200)
  expect(written).toEqual(['decides'])
})

test('the access log is written only for a reply that succeeded', async () => {
  written.length = 0
  const response = await fetch(`${base('firestore')}/denied`)
  expect(response.status).toBe(403)
  expect(written).toEqual([])
})

test('an unexpected error is a 500 in Google shape without its message or stack, and the server keeps serving', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  const response = await fetch(`${base('firestore')}/crashes`)
  expect(response.status).toBe(500)
  const text = await response.text()
  expect(text).not.toContain('secret internals')
  expect(text).not.toContain('at ')
  expect(logged).toHaveBeenCalledTimes(1)
  logged.mockRestore()
  expect((await fetch(`${base('firestore')}/decides`)).status).toBe(200)
})

test('a declared body over 16 MiB is refused with 413 before the handler reads it', async () => {
  const response = await fetch(`${base('firestore')}/upload`, {
    method: 'POST',
    body: Buffer.alloc(16 * 1024 * 1024 + 1),
  })
  expect(response.status).toBe(413)
  expect(((await response.json()) as { error: { code: number } }).error.code).toBe(413)
  const small = await fetch(`${base('firestore')}/upload`, { method: 'POST', body: 'abc' })
  expect(await small.json()).toEqual({ size: 3 })
})

test('CORS headers ride on every answer, and a preflight is answered by the core', async () => {
  const origin = 'http://localhost:5173'
  const preflight = await fetch(`${base('firestore')}/decides`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-headers': 'authorization' },
  })
  expect(preflight.status).toBe(204)
  expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization')
  for (const path of ['/decides', '/denied', '/no-such-route']) {
    const response = await fetch(`${base('firestore')}${path}`, { headers: { origin } })
    expect(response.headers.get('access-control-allow-origin'), path).toBe(origin)
    expect(response.headers.get('access-control-allow-credentials'), path).toBe('true')
  }
})

test('privilege: a management route needs the secret on a public listener; owner only counts on the admin one', async () => {
  const manage = (listener: Listener, authorization?: string) =>
    fetch(`${base(listener)}/manage`, { method: 'DELETE', headers: authorization ? { authorization } : {} })
  expect((await manage('firestore')).status).toBe(403)
  expect((await manage('firestore', 'Bearer good.token.x')).status).toBe(403)
  expect((await manage('firestore', 'Bearer owner')).status).toBe(403)
  expect(await (await manage('firestore', 'Bearer elsec_test')).json()).toEqual({ privileged: true })
  expect(await (await manage('firestore', 'Firebase elsec_test')).json()).toEqual({ privileged: true })
  expect(await (await manage('admin', 'Bearer owner')).json()).toEqual({ privileged: true })
  expect(await (await manage('admin', 'Bearer ya29.token')).json()).toEqual({ privileged: true })
  expect(await (await manage('admin')).json()).toEqual({ privileged: false })
  expect((await manage('firestore', 'Basic eA==')).status).toBe(401)
})
