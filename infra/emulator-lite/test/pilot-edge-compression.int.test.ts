import { createServer, type IncomingHttpHeaders } from 'node:http'
import { connect } from 'node:http2'
import { request } from 'node:https'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { canRunPilotEdge, type PilotEdge, startPilotEdge } from '@bosted/stack/pilot-edge'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

// The pilot's one origin (startPilotEdge: the shipped template, rendered as in the pilot) with the real nginx in front of emulator-lite and a stand-in api: emulator-lite's
// compressed answers pass through the edge unchanged (never compressed twice), media keeps its
// bytes and Range, and nginx itself compresses the api's JSON (ADR 0028).
const ready = canRunPilotEdge()
const PROJECT = 'demo-pilot-edge'
const BUCKET = `${PROJECT}.appspot.com`

const apiBody = JSON.stringify({
  persons: Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, name: `Borger ${i}` })),
})
const api = createServer((req, res) => {
  req.resume()
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
  res.end(apiBody)
})
let emulator: EmulatorLite
let edgeServer: PilotEdge | undefined
let port = 0

type Raw = { status: number; headers: IncomingHttpHeaders; data: Buffer }

function edge(method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, data: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

const decode = (answer: Raw) =>
  answer.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(answer.data)
    : answer.headers['content-encoding'] === 'gzip'
      ? gunzipSync(answer.data)
      : answer.data

beforeAll(async () => {
  if (!ready) return
  emulator = await startEmulatorLite({ firestorePort: 0, storagePort: 0, authPort: 0, inMemory: true })
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  edgeServer = await startPilotEdge({
    upstreams: {
      api: `127.0.0.1:${(api.address() as AddressInfo).port}`,
      auth: `127.0.0.1:${emulator.authPort}`,
      firestore: `127.0.0.1:${emulator.firestorePort}`,
      storage: `127.0.0.1:${emulator.storagePort}`,
    },
  })
  port = edgeServer.port
  // Registrations to query, written with the admin secret on the admin listener (never through the edge).
  const writes = Array.from({ length: 200 }, (_, i) => ({
    update: {
      name: `projects/${PROJECT}/databases/(default)/documents/persons/p${i % 10}/registrations/r${i}`,
      fields: { text: { stringValue: i % 3 ? 'Godt' : 'Skidt' }, day: { stringValue: `2026-11-${10 + (i % 20)}` } },
    },
  }))
  const committed = await fetch(
    `http://127.0.0.1:${emulator.adminPort}/v1/projects/${PROJECT}/databases/(default)/documents:commit`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.adminSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ writes }),
    },
  )
  if (!committed.ok) throw new Error(await committed.text())
})

afterAll(async () => {
  await edgeServer?.stop()
  await new Promise<void>((resolve) => (api.listening ? api.close(() => resolve()) : resolve()))
  await emulator?.close()
})

test.skipIf(!ready)(
  "emulator-lite's compressed Firestore and Auth answers pass the pilot's edge unchanged",
  async () => {
    const body = JSON.stringify({
      structuredQuery: { from: [{ collectionId: 'registrations', allDescendants: true }] },
      readTime: new Date().toISOString(),
    })
    const path = `/v1/projects/${PROJECT}/databases/(default)/documents:runQuery`
    const query = (offer?: string) =>
      edge('POST', path, { 'content-type': 'application/json', ...(offer ? { 'accept-encoding': offer } : {}) }, body)
    const identity = await query()
    expect(identity.status).toBe(200)
    expect(identity.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(identity.data.toString('utf8'))).toHaveLength(200)
    for (const [offer, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
    ] as const) {
      const answer = await query(offer)
      expect(answer.headers['content-encoding']).toBe(encoding)
      expect(answer.headers.vary).toContain('Accept-Encoding')
      expect(decode(answer).equals(identity.data)).toBe(true)
    }

    const signUp = (offer: string) =>
      edge(
        'POST',
        '/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key',
        { 'content-type': 'application/json', 'accept-encoding': offer },
        JSON.stringify({ email: `ny${offer.length}@example.dk`, password: 'hemmelig1', returnSecureToken: true }),
      )
    const signedUp = await signUp('gzip, deflate, br, zstd')
    expect(signedUp.status).toBe(200)
    expect(signedUp.headers['content-encoding']).toBe('br')
    expect(JSON.parse(decode(signedUp).toString('utf8'))).toMatchObject({ email: 'ny23@example.dk' })
  },
)

test.skipIf(!ready)(
  "an image keeps its bytes and its Range through the edge; the api's JSON is gzipped by nginx",
  async () => {
    const image = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(8000, 9)])
    const name = encodeURIComponent('persons/p1/avatar.jpg')
    const uploaded = await fetch(`http://127.0.0.1:${emulator.storagePort}/v0/b/${BUCKET}/o?name=${name}`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: image,
    })
    expect(uploaded.status).toBe(200)
    const media = await edge('GET', `/v0/b/${BUCKET}/o/${name}?alt=media`, { 'accept-encoding': 'gzip, br' })
    expect(media.status).toBe(200)
    expect(media.headers['content-encoding']).toBeUndefined()
    expect(media.data.equals(image)).toBe(true)
    const range = await edge('GET', `/v0/b/${BUCKET}/o/${name}?alt=media`, {
      'accept-encoding': 'gzip, br',
      range: 'bytes=2-9',
    })
    expect(range.status).toBe(206)
    expect(range.headers['content-range']).toBe(`bytes 2-9/${image.length}`)
    expect(range.data.equals(image.subarray(2, 10))).toBe(true)

    // Also for a request that came through another proxy (Via), as the native stack's app.conf does.
    for (const via of [{}, { via: '1.1 municipality-proxy' }] as Record<string, string>[]) {
      const json = await edge('GET', '/api/person/list', { 'accept-encoding': 'gzip, deflate, br, zstd', ...via })
      expect(json.headers['content-encoding']).toBe('gzip')
      expect(gunzipSync(json.data).toString('utf8')).toBe(apiBody)
    }
  },
)

test.skipIf(!ready)(
  'the origin speaks HTTP/2 (ALPN h2): files, api and Firestore answers on one connection, as over HTTP/1.1',
  async () => {
    const session = connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false })
    try {
      const get = (path: string) =>
        new Promise<Raw>((resolve, reject) => {
          const stream = session.request({ ':path': path, 'accept-encoding': 'gzip, deflate, br, zstd' })
          const chunks: Buffer[] = []
          let headers: IncomingHttpHeaders = {}
          stream.on('response', (received) => {
            headers = received as IncomingHttpHeaders
          })
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => resolve({ status: Number(headers[':status']), headers, data: Buffer.concat(chunks) }))
          stream.on('error', reject)
        })
      const document = `/v1/projects/${PROJECT}/databases/(default)/documents/persons/p1/registrations/r1`
      const [config, json, read] = await Promise.all([get('/config.json'), get('/api/person/list'), get(document)])
      expect(session.alpnProtocol).toBe('h2')
      expect(config.status).toBe(200)
      expect(JSON.parse(decode(config).toString('utf8'))).toHaveProperty('firebase')
      expect(json.headers['content-encoding']).toBe('gzip')
      expect(gunzipSync(json.data).toString('utf8')).toBe(apiBody)
      const overHttp1 = await edge('GET', document, {})
      expect(read.status).toBe(200)
      expect(decode(read).equals(overHttp1.data)).toBe(true)
    } finally {
      session.close()
    }
  },
)
