import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { deleteApp, initializeApp } from 'firebase-admin/app'
import { initializeFirestore } from 'firebase-admin/firestore'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { assertBackendHasRoom, BackendFullError, fetchRefusingFullDisk } from './backend-full.ts'

// A stand-in for emulator-lite on a full disk: every commit refused with 429 RESOURCE_EXHAUSTED, and
// /health saying so. (The real one is exercised by infra/emulator-lite/test/disk-full.int.test.ts.)
let server: Server
let host: string
let commits = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ status: 'degraded', disk: { state: 'full' } }))
      return
    }
    commits += 1
    res.writeHead(429, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'the data disk is full' } }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

test('a commit refused for lack of space fails at once instead of being retried by firebase-admin', async () => {
  process.env.FIRESTORE_EMULATOR_HOST = host
  const app = initializeApp({ projectId: 'demo-full' }, 'backend-full')
  const db = initializeFirestore(app, { preferRest: true })
  db.settings({ auth: { getRequestHeaders: async () => ({}), fetch: fetchRefusingFullDisk } } as never)
  try {
    const error = await db
      .doc('a/b')
      .set({ x: 1 })
      .then(
        () => null,
        (caught: unknown) => caught,
      )
    expect((error as Error).message).toContain('RESOURCE_EXHAUSTED (the data disk is full)')
    expect((error as { cause?: unknown }).cause).toBeInstanceOf(BackendFullError)
    expect(commits).toBe(1)
  } finally {
    await deleteApp(app)
  }
})

test('a backend whose health reports a full disk stops the run before it starts', async () => {
  await expect(assertBackendHasRoom(host)).rejects.toThrow(/reports a full disk and refuses writes/)
  await expect(assertBackendHasRoom(undefined)).resolves.toBeUndefined()
})
