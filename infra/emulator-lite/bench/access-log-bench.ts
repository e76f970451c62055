// The access log's cost (issue 22): batchGet and the 10k-document queries with logging on vs off
// (two emulator-lite instances on disk, measured in turns), and the viewer's first page through the
// real api when the person's log holds 100,000 entries. Prints figures; asserts nothing.
// Run: npx tsx infra/emulator-lite/bench/access-log-bench.ts   (or `make bench`)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bostedAccessClassifier } from '@bosted/domain/access-classifier'
import { startEmulatorLite } from '../src/index.ts'

const PROJECT = 'demo-access-bench'
const OWNER = { authorization: 'Bearer owner', 'content-type': 'application/json' }
const claims = { sub: 'emp', email: 'emp@bench.dk', userRole: 'user' }
/** An employee's unsigned mock ID token (both instances accept them): a client request, so logged. */
const CLIENT = {
  authorization: `Bearer eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`,
  'content-type': 'application/json',
}
const PERSONS = 100
const NOTES_PER_PERSON = 100

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0
const fmt = (ms: number) => `${ms.toFixed(2)} ms`

async function seed(base: string): Promise<void> {
  const docs = `projects/${PROJECT}/databases/(default)/documents`
  for (let p = 0; p < PERSONS; p++) {
    const writes = [
      { update: { name: `${docs}/persons/p${p}`, fields: { firstName: { stringValue: `Borger ${p}` } } } },
      ...Array.from({ length: NOTES_PER_PERSON }, (_, n) => ({
        update: {
          name: `${docs}/persons/p${p}/notes/n${n}`,
          fields: {
            locationId: { stringValue: 'L1' },
            day: { stringValue: `2026-${String(1 + (n % 12)).padStart(2, '0')}-10` },
            text: { stringValue: 'En god dag med gåtur og aftensmad sammen med de andre.' },
          },
        },
      })),
    ]
    const response = await fetch(`${base}/v1/${docs}:commit`, {
      method: 'POST',
      headers: OWNER,
      body: JSON.stringify({ writes }),
    })
    if (!response.ok) throw new Error(`seed failed: ${response.status}`)
  }
}

/** Runs `request` on both instances in turns (so load and warm-up fall on both alike); p50 and p99 of each. */
async function compare(
  label: string,
  iterations: number,
  request: (base: string) => Promise<Response>,
  on: string,
  off: string,
) {
  const times = { on: [] as number[], off: [] as number[] }
  for (let i = 0; i < 20; i++) for (const base of [on, off]) await (await request(base)).arrayBuffer()
  for (let i = 0; i < iterations; i++) {
    for (const [key, base] of (i % 2 === 0
      ? [
          ['on', on],
          ['off', off],
        ]
      : [
          ['off', off],
          ['on', on],
        ]) as ['on' | 'off', string][]) {
      const start = performance.now()
      const response = await request(base)
      await response.arrayBuffer()
      if (!response.ok) throw new Error(`${label}: ${response.status}`)
      times[key].push(performance.now() - start)
    }
  }
  for (const list of Object.values(times)) list.sort((a, b) => a - b)
  const p50On = percentile(times.on, 0.5)
  const p50Off = percentile(times.off, 0.5)
  console.log(
    `${label}: logging on p50 ${fmt(p50On)} p99 ${fmt(percentile(times.on, 0.99))} · off p50 ${fmt(p50Off)} p99 ${fmt(percentile(times.off, 0.99))} · added p50 ${fmt(p50On - p50Off)}`,
  )
}

const dirs = [mkdtempSync(join(tmpdir(), 'access-on-')), mkdtempSync(join(tmpdir(), 'access-off-'))]
// The same mock token on both sides (the log's cost is measured here; identity-bench.ts measures
// verification), so both accept unsigned tokens.
const lax = {
  firestorePort: 0,
  storagePort: 0,
  authPort: 0,
  acceptUnsignedTokens: true,
  // As the stack starts it: the domain says which paths are a person's data.
  accessClassifier: bostedAccessClassifier,
}
const [withLog, withoutLog] = await Promise.all([
  startEmulatorLite({ ...lax, dataDir: dirs[0] }),
  startEmulatorLite({ ...lax, dataDir: dirs[1], accessLog: false }),
])
const on = `http://127.0.0.1:${withLog.firestorePort}`
const off = `http://127.0.0.1:${withoutLog.firestorePort}`
try {
  console.log(
    `${PERSONS * NOTES_PER_PERSON} notes of ${PERSONS} persons, durable on disk (WAL, synchronous=FULL) in both`,
  )
  // The owner credential seeds through each instance's admin listener.
  await Promise.all([seed(`http://127.0.0.1:${withLog.adminPort}`), seed(`http://127.0.0.1:${withoutLog.adminPort}`)])
  const docs = `projects/${PROJECT}/databases/(default)/documents`
  await compare(
    'single-document batchGet of a person (1 entry)',
    2000,
    (base) =>
      fetch(`${base}/v1/${docs}:batchGet`, {
        method: 'POST',
        headers: CLIENT,
        body: JSON.stringify({ documents: [`${docs}/persons/p1`] }),
      }),
    on,
    off,
  )
  /** The location's notes across persons (a collection group), with more of the query when given. */
  const notesQuery = (more: Record<string, unknown>) => (base: string) =>
    fetch(`${base}/v1/${docs}:runQuery`, {
      method: 'POST',
      headers: CLIENT,
      body: JSON.stringify({
        structuredQuery: {
          from: [{ collectionId: 'notes', allDescendants: true }],
          where: { fieldFilter: { field: { fieldPath: 'locationId' }, op: 'EQUAL', value: { stringValue: 'L1' } } },
          ...more,
        },
      }),
    })
  await compare(
    'runQuery on 10,000 notes (filter + orderBy + limit 50; 1 entry)',
    200,
    notesQuery({ orderBy: [{ field: { fieldPath: 'day' }, direction: 'DESCENDING' }], limit: 50 }),
    on,
    off,
  )
  await compare(
    'runQuery returning all 10,000 notes (100 persons: 100 entries in one transaction)',
    40,
    notesQuery({}),
    on,
    off,
  )
} finally {
  await Promise.all([withLog.close(), withoutLog.close()])
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
}

// The viewer's first page through the real api (session, authorisation, the logged opening, the
// page, names), with 100,000 entries in the person's log.
const { startTestStack } = await import('@bosted/stack/testing')
const stack = await startTestStack({ serveWeb: false, seed: false, build: false, api: false })
try {
  for (const [key, value] of Object.entries(stack.env)) if (value !== undefined) process.env[key] = value
  const { createTestApi, createTestUser, loginAs, call } = await import('@bosted/api/testing')
  const api = createTestApi(PROJECT)
  const admin = await loginAs(api, await createTestUser(api.firebase, { userRole: 'admin' }))
  await api.firebase.db
    .collection('persons')
    .doc('p1')
    .set({ id: 'p1', firstName: 'Borger', lastName: 'Et', locationId: 'L1' })
  const staff = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      createTestUser(api.firebase, { userRole: 'user', locations: ['L1'], displayName: `Ansat ${i}` }),
    ),
  )
  const host = process.env.FIRESTORE_EMULATOR_HOST
  const started = performance.now()
  for (let batch = 0; batch < 200; batch++) {
    const entries = Array.from({ length: 500 }, (_, i) => {
      const who = staff[(batch * 500 + i) % staff.length]
      return {
        personId: 'p1',
        operation: i % 5 === 0 ? 'get' : 'list',
        resource: i % 3 === 0 ? 'notes' : 'registrations',
        resourceName: `persons/p1/${i % 3 === 0 ? 'notes' : 'registrations'}`,
        methodName: 'google.firestore.v1.Firestore.RunQuery',
        principal: { uid: who?.uid, email: who?.email, role: 'employee' },
        count: 1 + (i % 40),
        callerIp: '10.0.0.1',
      }
    })
    const response = await fetch(`http://${host}/emulator/v1/projects/${PROJECT}/accessLog:append`, {
      method: 'POST',
      headers: OWNER,
      body: JSON.stringify({ entries }),
    })
    if (!response.ok) throw new Error(`append failed: ${response.status}`)
  }
  console.log(`appended 100,000 entries in ${((performance.now() - started) / 1000).toFixed(1)} s (500 per request)`)
  const firstPage = async (query: string) => {
    const times: number[] = []
    for (let i = 0; i < 30; i++) {
      const start = performance.now()
      const response = await call(api.app, 'GET', `/api/person/p1/access-log${query}`, { cookie: admin.cookie })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`viewer: ${response.status}`)
      times.push(performance.now() - start)
    }
    times.sort((a, b) => a - b)
    console.log(
      `viewer first page ${query || '(no filter)'} at 100,000 entries: p50 ${fmt(percentile(times, 0.5))} p99 ${fmt(percentile(times, 0.99))}`,
    )
  }
  await firstPage('')
  await firstPage(`?actor=${staff[3]?.uid}`)
  await firstPage('?operation=get&from=2026-01-01&to=2026-12-31')
  const verifyStart = performance.now()
  const verify = await call(api.app, 'GET', '/api/access-log/verify', { cookie: admin.cookie })
  const verified = (await verify.json()) as { data: { entries: number; intact: boolean } }
  console.log(
    `verify the whole chain (${verified.data.entries.toLocaleString('en')} entries, intact: ${verified.data.intact}): ${fmt(performance.now() - verifyStart)}`,
  )
  await api.close()
} finally {
  await stack.stop()
}
