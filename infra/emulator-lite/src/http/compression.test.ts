import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { MIN_COMPRESSED_BYTES, negotiateEncoding, STREAM_FROM_BYTES, writeJsonBody } from './compression.ts'

test('brotli wins whenever it is acceptable, as Chromium offers it', () => {
  expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br')
  expect(negotiateEncoding('gzip;q=1.0, br;q=0.1')).toBe('br')
  expect(negotiateEncoding('BR')).toBe('br')
})

test('gzip when brotli is not offered, as Node fetch and curl --compressed offer', () => {
  expect(negotiateEncoding('gzip, deflate')).toBe('gzip')
  expect(negotiateEncoding('x-gzip')).toBe('gzip')
  expect(negotiateEncoding('gzip, br;q=0')).toBe('gzip')
  expect(negotiateEncoding(['deflate', 'gzip'])).toBe('gzip')
})

test('identity without a header, with an empty one, or when every coding we have is refused', () => {
  expect(negotiateEncoding(undefined)).toBeNull()
  expect(negotiateEncoding('')).toBeNull()
  expect(negotiateEncoding('identity')).toBeNull()
  expect(negotiateEncoding('deflate, zstd')).toBeNull()
  expect(negotiateEncoding('gzip;q=0, br;q=0')).toBeNull()
  expect(negotiateEncoding('*;q=0')).toBeNull()
})

test('a wildcard covers the codings it does not list', () => {
  expect(negotiateEncoding('*')).toBe('br')
  expect(negotiateEncoding('br;q=0, *')).toBe('gzip')
  expect(negotiateEncoding('br;q=0, gzip;q=0, *')).toBeNull()
})

// writeJsonBody behind a real HTTP server, read with a raw client (no transparent decompression).
let server: Server
let port = 0
let answer = { status: 200, text: '' }

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    res.setHeader('vary', 'Origin')
    writeJsonBody(req, res, answer.status, { 'content-type': 'application/json; charset=utf-8' }, answer.text)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function get(
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: IncomingHttpHeaders; data: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, data: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

const json = (bytes: number) => {
  const items: string[] = []
  let length = 2
  for (let i = 0; length < bytes; i += 1) {
    const item = JSON.stringify({ name: `projects/p/databases/(default)/documents/c/d${i}`, value: `Godt ${i}` })
    items.push(item)
    length += item.length + 1
  }
  return `[${items.join(',')}]`
}

test('an answer under the threshold goes as it is, with its Content-Length and Vary', async () => {
  answer = { status: 200, text: json(MIN_COMPRESSED_BYTES - 200) }
  expect(Buffer.byteLength(answer.text)).toBeLessThan(MIN_COMPRESSED_BYTES)
  const res = await get({ 'accept-encoding': 'gzip, br' })
  expect(res.headers['content-encoding']).toBeUndefined()
  expect(res.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)))
  expect(res.headers.vary).toBe('Origin, Accept-Encoding')
  expect(res.data.toString('utf8')).toBe(answer.text)
})

test('a mid-size answer is compressed at once, with the compressed Content-Length', async () => {
  answer = { status: 200, text: json(4000) }
  for (const [offer, encoding, decode] of [
    ['gzip', 'gzip', gunzipSync],
    ['gzip, br', 'br', brotliDecompressSync],
  ] as const) {
    const res = await get({ 'accept-encoding': offer })
    expect(res.headers['content-encoding']).toBe(encoding)
    expect(res.headers['content-length']).toBe(String(res.data.length))
    expect(res.headers['transfer-encoding']).toBeUndefined()
    expect(res.data.length).toBeLessThan(Buffer.byteLength(answer.text) / 2)
    expect(decode(res.data).toString('utf8')).toBe(answer.text)
  }
})

test('a large answer leaves as a stream: chunked, no Content-Length, the same bytes once decoded', async () => {
  answer = { status: 200, text: json(STREAM_FROM_BYTES + 100_000) }
  for (const [offer, decode] of [
    ['gzip', gunzipSync],
    ['br', brotliDecompressSync],
  ] as const) {
    const res = await get({ 'accept-encoding': offer })
    expect(res.headers['content-encoding']).toBe(offer)
    expect(res.headers['content-length']).toBeUndefined()
    expect(res.headers['transfer-encoding']).toBe('chunked')
    expect(decode(res.data).toString('utf8')).toBe(answer.text)
  }
})

test('a client that offers nothing, or identity only, gets identity', async () => {
  answer = { status: 200, text: json(STREAM_FROM_BYTES + 100_000) }
  for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
    const res = await get(headers)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)))
    expect(res.data.toString('utf8')).toBe(answer.text)
  }
})

test('HEAD gets the identity headers and no body; 204 and 304 carry no body and no encoding', async () => {
  answer = { status: 200, text: json(STREAM_FROM_BYTES + 100_000) }
  const head = await get({ 'accept-encoding': 'gzip, br' }, 'HEAD')
  expect(head.headers['content-encoding']).toBeUndefined()
  expect(head.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)))
  expect(head.data.length).toBe(0)
  for (const status of [204, 304]) {
    answer = { status, text: '' }
    const res = await get({ 'accept-encoding': 'gzip' })
    expect(res.status).toBe(status)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.data.length).toBe(0)
  }
  // The connection is still good for a compressed answer after them.
  answer = { status: 200, text: json(4000) }
  const after = await get({ 'accept-encoding': 'gzip' })
  expect(gunzipSync(after.data).toString('utf8')).toBe(answer.text)
})
