import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestApi, type TestApi } from './testing.ts'

let api: TestApi
let server: ReturnType<typeof serve>
let port: number

beforeAll(async () => {
  api = createTestApi('demo-api-body-limit')
  await new Promise<void>((resolve) => {
    server = serve({ fetch: api.app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve())
  })
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await api.close()
})

/** A raw HTTP/1.1 POST, as curl or a script sends it: the whole body is written before reading. */
function post(path: string, body: Buffer, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString()
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

test('a 1 MB body sent straight to the api gets 413 with a JSON error, not a socket reset', async () => {
  const body = Buffer.from(JSON.stringify({ email: 'a@b.dk', password: 'x'.repeat(1024 * 1024) }))
  const response = await post('/api/user/create', body)
  expect(response.status).toBe(413)
  expect(JSON.parse(response.body)).toEqual({
    error: { code: 'payload_too_large', message: 'Forespørgslen er for stor.' },
  })
})

test('the same through fetch, with and without a declared length', async () => {
  const body = JSON.stringify({ password: 'x'.repeat(1024 * 1024) })
  const response = await fetch(`http://127.0.0.1:${port}/api/user/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })
  expect(response.status).toBe(413)
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large')
  const chunked = await fetch(`http://127.0.0.1:${port}/api/user/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new Blob([body]).stream(),
    duplex: 'half',
  } as RequestInit)
  expect(chunked.status).toBe(413)
})

test('a client that sends its 1 MB slowly still reads the 413 instead of a reset', async () => {
  const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/user/create',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(1024 * 1024) },
      },
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString()
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      },
    )
    req.on('error', reject)
    // 16 pieces of 64 KiB, 100 ms apart: a slow uplink.
    let sent = 0
    const timer = setInterval(() => {
      req.write(Buffer.alloc(64 * 1024, 0x20))
      sent += 1
      if (sent === 16) {
        clearInterval(timer)
        req.end()
      }
    }, 100)
  })
  expect(response.status).toBe(413)
  expect(JSON.parse(response.body).error.code).toBe('payload_too_large')
})
