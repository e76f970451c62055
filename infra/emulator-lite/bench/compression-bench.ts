// `make bench` (emulator-lite, ADR 0028): what compression of JSON answers costs and saves. An
// emulator-lite process in memory, 1,000 registration documents (as the app writes them), read over
// loopback HTTP/1.1 keep-alive with a raw client that decompresses as a browser does (client time
// included), offering nothing (identity), `gzip, deflate` (Node fetch, firebase-admin's REST) or
// `gzip, deflate, br, zstd` (Chromium). Modes run in turns so load from other work hits all alike.
// Prints figures; asserts nothing.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { Agent, type IncomingHttpHeaders, request } from 'node:http'
import type { Transform } from 'node:stream'
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gunzipSync,
  gzipSync,
  zstdCompressSync,
} from 'node:zlib'
import { freePort } from '@bosted/stack/ports'
import { MIN_COMPRESSED_BYTES, STREAM_FROM_BYTES } from '../src/http/compression.ts'

const cli = new URL('../src/cli.ts', import.meta.url).pathname
const project = 'demo-compression-bench'
const documents = `projects/${project}/databases/(default)/documents`
const REGISTRATIONS = 1000
const SMALL_ROUNDS = Number(process.env.COMPRESSION_BENCH_SMALL ?? 3000)
const LARGE_ROUNDS = Number(process.env.COMPRESSION_BENCH_LARGE ?? 150)
/** The care home's wifi of issue 34: 10 Mbit/s down. */
const TABLET_BITS_PER_SECOND = 10_000_000

const MODES = [
  { name: 'identity', offer: undefined },
  { name: 'gzip', offer: 'gzip, deflate' },
  { name: 'br', offer: 'gzip, deflate, br, zstd' },
] as const
type Mode = (typeof MODES)[number]['name']

const port = await freePort()
const adminPort = await freePort()
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    cli,
    '--in-memory',
    '--firestore-port',
    String(port),
    '--storage-port',
    String(await freePort()),
    '--admin-port',
    String(adminPort),
    '--auth-port',
    String(await freePort()),
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
)
process.on('exit', () => child.kill('SIGKILL'))
for (;;) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break
  } catch {}
  await new Promise((resolve) => setTimeout(resolve, 10))
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 })
type Answer = { ms: number; wireBytes: number; body: Buffer; headers: IncomingHttpHeaders }

/** One request; its time runs until the body is received and decompressed. */
function call(path: string, body: string, offer: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', ...(offer ? { 'accept-encoding': offer } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const wire = Buffer.concat(chunks)
          const encoding = res.headers['content-encoding']
          const decoded = encoding === 'gzip' ? gunzipSync(wire) : encoding === 'br' ? brotliDecompressSync(wire) : wire
          resolve({ ms: performance.now() - started, wireBytes: wire.length, body: decoded, headers: res.headers })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

// 1,000 registrations of 60 persons over 90 days, written with the owner credential.
const uid = randomUUID().replace(/-/g, '').slice(0, 28)
const names: string[] = []
const writes = Array.from({ length: REGISTRATIONS }, (_, index) => {
  const day = new Date(Date.UTC(2026, 8, 1 + (index % 90))).toISOString().slice(0, 10)
  const person = `${randomUUID().replace(/-/g, '').slice(0, 20)}${index % 60}`
  const good = index % 3 !== 0
  const name = `${documents}/persons/${person}/registrations/${randomUUID().replace(/-/g, '').slice(0, 20)}`
  names.push(name)
  const text = (value: string) => ({ stringValue: value })
  return {
    update: {
      name,
      fields: {
        answerId: text(good ? 'good' : 'bad'),
        text: text(good ? 'Godt' : 'Skidt'),
        value: { integerValue: good ? '3' : '1' },
        entity: text('location'),
        day: text(day),
        createdAt: text(`${day}T10:00:00.000Z`),
        createdBy: text(uid),
        createdByName: text('Bench Bruger'),
        personId: text(person),
        locationId: text('bench-location'),
      },
    },
  }
})
for (let start = 0; start < writes.length; start += 500) {
  const response = await fetch(`http://127.0.0.1:${adminPort}/v1/${documents}:commit`, {
    method: 'POST',
    headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
    body: JSON.stringify({ writes: writes.slice(start, start + 500) }),
  })
  if (!response.ok) throw new Error(`seeding failed: ${response.status} ${await response.text()}`)
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

type Figures = Record<Mode, { ms: number[]; wire: number; encoding: string }>

/** Runs `rounds` requests per mode, in turns, after a warm-up; checks every mode read the same bytes. */
async function measure(path: string, body: string, rounds: number): Promise<Figures & { size: number }> {
  const figures = Object.fromEntries(
    MODES.map(({ name }) => [name, { ms: [] as number[], wire: 0, encoding: '' }]),
  ) as unknown as Figures
  let identity: Buffer | undefined
  for (let round = -Math.min(50, rounds); round < rounds; round += 1)
    for (const { name, offer } of round % 2 === 0 ? MODES : [...MODES].reverse()) {
      const answer = await call(path, body, offer)
      if (round < 0) continue
      identity ??= name === 'identity' ? answer.body : undefined
      if (identity !== undefined && name !== 'identity' && answer.body.length !== identity.length)
        throw new Error(`${name} decoded to ${answer.body.length} bytes, identity has ${identity.length}`)
      figures[name].ms.push(answer.ms)
      figures[name].wire = answer.wireBytes
      figures[name].encoding = String(answer.headers['content-encoding'] ?? 'identity')
    }
  return { ...figures, size: identity?.length ?? 0 }
}

function report(title: string, figures: Figures & { size: number }) {
  console.log(`\n${title} (${figures.size.toLocaleString('en')} bytes as JSON)`)
  const base = percentile(figures.identity.ms, 50)
  for (const { name } of MODES) {
    const { ms, wire, encoding } = figures[name]
    const p50 = percentile(ms, 50)
    const tablet = (wire * 8 * 1000) / TABLET_BITS_PER_SECOND
    console.log(
      `- ${name.padEnd(8)} sent ${encoding.padEnd(8)} ${kb(wire).padStart(9)} on the wire, p50 ${p50.toFixed(2)} ms, ` +
        `p99 ${percentile(ms, 99).toFixed(2)} ms, added p50 ${(p50 - base).toFixed(2)} ms; ` +
        `at 10 Mbit/s the bytes take ${tablet.toFixed(1)} ms`,
    )
  }
}

console.log(
  `Compression of JSON answers: threshold ${MIN_COMPRESSED_BYTES} bytes, streamed from ${STREAM_FROM_BYTES} bytes`,
)

const batchGet = `/v1/${documents}:batchGet`
const small = await measure(batchGet, JSON.stringify({ documents: names.slice(0, 2) }), SMALL_ROUNDS)
report(`Small answer: batchGet of 2 registrations, ${SMALL_ROUNDS} requests per mode`, small)
const tiny = await measure(batchGet, JSON.stringify({ documents: names.slice(0, 1) }), SMALL_ROUNDS / 3)
report(`Under the threshold: batchGet of 1 registration, ${SMALL_ROUNDS / 3} requests per mode`, tiny)
const runQuery = JSON.stringify({
  structuredQuery: { from: [{ collectionId: 'registrations', allDescendants: true }] },
})
const large = await measure(`/v1/${documents}:runQuery`, runQuery, LARGE_ROUNDS)
report(`Large answer: runQuery of ${REGISTRATIONS} registrations, ${LARGE_ROUNDS} requests per mode`, large)

// The choice of codec and level (ADR 0028): compression alone, in process, on the same two answers.
const answers = {
  small: (await call(batchGet, JSON.stringify({ documents: names.slice(0, 2) }), undefined)).body,
  large: (await call(`/v1/${documents}:runQuery`, runQuery, undefined)).body,
}
const brotli = (quality: number) => (data: Buffer) =>
  brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  })
const codecs: [string, (data: Buffer) => Buffer][] = [
  ['gzip 1 (chosen)', (data) => gzipSync(data, { level: 1 })],
  ['gzip 6 (zlib default)', (data) => gzipSync(data, { level: 6 })],
  ['gzip 9', (data) => gzipSync(data, { level: 9 })],
  ['br 1 (chosen)', brotli(1)],
  ['br 3', brotli(3)],
  ['br 4', brotli(4)],
  ['br 5', brotli(5)],
  ['br 11 (default)', brotli(11)],
  ['zstd 3', (data) => zstdCompressSync(data)],
]
const cpu = (fn: () => void, runs: number) => {
  for (let i = 0; i < Math.min(20, runs); i += 1) fn()
  const times: number[] = []
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now()
    fn()
    times.push(performance.now() - started)
  }
  return percentile(times, 50)
}
console.log('\nCodec and level, compression alone (p50 CPU time, compressed size):')
console.log('| codec | small answer | large answer |')
console.log('|---|---|---|')
for (const [name, fn] of codecs) {
  const runs = name.includes('11') ? 5 : 200
  console.log(
    `| ${name} | ${(cpu(() => fn(answers.small), runs * 10) * 1000).toFixed(0)} µs, ${fn(answers.small).length} B | ` +
      `${cpu(() => fn(answers.large), runs).toFixed(2)} ms, ${kb(fn(answers.large).length)} |`,
  )
}

// Streaming (what answers from STREAM_FROM_BYTES do) against compressing at once, same codec and
// level, at three sizes, in turns: a stream hands each 16 KiB of output to and from the thread pool.
const brotliOne = (size: number) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 1,
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
})
const streamOnce = (compressor: Transform, data: Buffer) =>
  new Promise<void>((resolve) => {
    compressor.resume()
    compressor.on('end', resolve)
    compressor.end(data)
  })
const largeText = answers.large.toString('utf8')
const sizes: [string, Buffer][] = [
  ['96 KB', Buffer.from(`${largeText.slice(0, largeText.indexOf('},{"document"', 96_000) + 1)}]`)],
  [kb(answers.large.length), answers.large],
  [
    '4 × that',
    Buffer.from(`[${[largeText, largeText, largeText, largeText].map((text) => text.slice(1, -1)).join(',')}]`),
  ],
]
console.log('\nAt once (sync, on the event loop) vs streamed (zlib stream, thread pool), compression alone, p50 / p99:')
for (const [label, data] of sizes) {
  const ways: [string, () => void | Promise<void>][] = [
    ['gzip 1 at once', () => void gzipSync(data, { level: 1 })],
    ['gzip 1 streamed', () => streamOnce(createGzip({ level: 1 }), data)],
    ['br 1 at once', () => void brotliCompressSync(data, brotliOne(data.length))],
    ['br 1 streamed', () => streamOnce(createBrotliCompress(brotliOne(data.length)), data)],
  ]
  const times = ways.map(() => [] as number[])
  for (let round = -5; round < 60; round += 1)
    for (const [index, [, run]] of ways.entries()) {
      const started = performance.now()
      await run()
      if (round >= 0) times[index]?.push(performance.now() - started)
    }
  console.log(
    `- ${label}: ${ways.map(([name], index) => `${name} ${percentile(times[index] ?? [], 50).toFixed(2)} / ${percentile(times[index] ?? [], 99).toFixed(2)} ms`).join('; ')}`,
  )
}
agent.destroy()
child.kill('SIGKILL')
