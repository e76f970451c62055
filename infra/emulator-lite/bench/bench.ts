// `make bench` (emulator-lite): start-up, commit/batchGet latency, runQuery on 10k documents and a
// collection group, RSS with 100k documents. Prints figures and writes BENCHMARKS.md; asserts nothing.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@bosted/stack/ports'

const cli = join(import.meta.dirname, '../src/cli.ts')
const project = 'demo-bench'
const root = `projects/${project}/databases/(default)/documents`

/** `dataDir` null: in memory; otherwise the default durable mode (SQLite WAL, synchronous=FULL) there. */
async function startServer(
  dataDir: string | null = null,
  extraArgs: string[] = [],
): Promise<{ port: number; adminPort: number; pid: number; stop(): void; readyMs: number }> {
  const port = await freePort()
  const storagePort = await freePort()
  const adminPort = await freePort()
  const started = performance.now()
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      cli,
      '--firestore-port',
      String(port),
      '--storage-port',
      String(storagePort),
      '--admin-port',
      String(adminPort),
      ...(dataDir === null ? ['--in-memory'] : ['--data', dataDir]),
      ...extraArgs,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return {
    port,
    adminPort,
    pid: child.pid as number,
    readyMs: performance.now() - started,
    stop: () => child.kill('SIGKILL'),
  }
}

const post = (port: number, rpc: string, body: unknown, authorization?: string) =>
  fetch(`http://127.0.0.1:${port}/v1/${root}${rpc}`, {
    method: 'POST',
    body: JSON.stringify(body),
    ...(authorization ? { headers: { authorization } } : {}),
  }).then(async (r) => {
    const json = await r.json()
    if (!r.ok) throw new Error(`${rpc}: ${r.status} ${JSON.stringify(json)}`)
    return json
  })

async function timeIt(runs: number, work: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await work(i)
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number
  return { p50: at(0.5), p99: at(0.99) }
}

/** An ID token of `uid` from emulator-lite's Auth, through the admin listener on `adminPort` (signed: Firestore verifies it). */
async function signedInToken(adminPort: number, uid: string): Promise<string> {
  const auth = `http://127.0.0.1:${adminPort}/identitytoolkit.googleapis.com/v1`
  const account = { email: `${uid}@bench.dk`, password: 'hemmelig1' }
  await fetch(`${auth}/accounts:signUp`, {
    method: 'POST',
    headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
    body: JSON.stringify({ localId: uid, ...account }),
  })
  const response = await fetch(`${auth}/accounts:signInWithPassword?key=bench`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  })
  return ((await response.json()) as { idToken: string }).idToken
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

const doc = (name: string, i: number) => ({
  update: {
    name: `${root}/${name}`,
    fields: {
      i: { integerValue: String(i) },
      group: { integerValue: String(i % 10) },
      text: { stringValue: `document ${i}` },
    },
  },
})

async function insert(port: number, collection: (i: number) => string, count: number): Promise<void> {
  for (let start = 0; start < count; start += 500) {
    const writes = Array.from({ length: Math.min(500, count - start) }, (_, k) => doc(collection(start + k), start + k))
    await post(port, ':commit', { writes })
  }
}

const server = await startServer()
const lines: string[] = []
const report = (line: string) => {
  console.log(line)
  lines.push(`- ${line}`)
}
report(`start-up to healthy: ${server.readyMs.toFixed(0)} ms (process spawn + tsx + SQLite)`)
const commit = await timeIt(1000, (i) => post(server.port, ':commit', { writes: [doc(`single/d${i}`, i)] }))
report(`single-document commit: p50 ${commit.p50.toFixed(2)} ms, p99 ${commit.p99.toFixed(2)} ms (1,000 sequential)`)
const batchGet = await timeIt(1000, (i) => post(server.port, ':batchGet', { documents: [`${root}/single/d${i}`] }))
report(
  `single-document batchGet: p50 ${batchGet.p50.toFixed(2)} ms, p99 ${batchGet.p99.toFixed(2)} ms (1,000 sequential)`,
)

await insert(server.port, (i) => `big/d${String(i).padStart(6, '0')}`, 10_000)
const query = {
  structuredQuery: {
    from: [{ collectionId: 'big' }],
    where: { fieldFilter: { field: { fieldPath: 'group' }, op: 'EQUAL', value: { integerValue: '3' } } },
    orderBy: [{ field: { fieldPath: 'i' }, direction: 'DESCENDING' }],
    limit: 50,
  },
}
const runQuery = await timeIt(100, () => post(server.port, ':runQuery', query))
report(
  `runQuery on 10,000 documents (filter + orderBy + limit 50): p50 ${runQuery.p50.toFixed(1)} ms, p99 ${runQuery.p99.toFixed(1)} ms`,
)

await insert(server.port, (i) => `parents/p${i % 100}/items/i${i}`, 10_000)
const groupQuery = {
  structuredQuery: {
    from: [{ collectionId: 'items', allDescendants: true }],
    where: query.structuredQuery.where,
    limit: 50,
  },
}
const group = await timeIt(100, () => post(server.port, ':runQuery', groupQuery))
report(
  `collection-group runQuery over 10,000 documents in 100 parents: p50 ${group.p50.toFixed(1)} ms, p99 ${group.p99.toFixed(1)} ms`,
)

// Security rules on: the same commit and 10k query as a signed-in client whose rules read its staff
// document with get(), against the same requests with rules off (the figures above).
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    function staff() { return get(/databases/$(database)/documents/staff/$(request.auth.uid)).data; }
    match /plain/{id} { allow write: if request.auth != null && request.resource.data.i is int; }
    match /single/{id} { allow write: if request.auth != null && request.resource.data.i is int && staff().active == true; }
    match /big/{id} { allow list: if request.auth != null && resource.data.group in staff().groups; }
  }
}`
const rulesDir = mkdtempSync(join(tmpdir(), 'emulator-lite-rules-'))
writeFileSync(join(rulesDir, 'firestore.rules'), RULES)
const guarded = await startServer(null, ['--firestore-rules', join(rulesDir, 'firestore.rules')])
const owner = 'Bearer owner'
// A real, signed ID token (Firestore verifies it); the owner credential is believed on the admin listener only.
const client = `Bearer ${await signedInToken(guarded.adminPort, 'bench')}`
await post(
  guarded.adminPort,
  ':commit',
  {
    writes: [
      {
        update: {
          name: `${root}/staff/bench`,
          fields: {
            active: { booleanValue: true },
            groups: { arrayValue: { values: [{ integerValue: '3' }, { integerValue: '4' }] } },
          },
        },
      },
    ],
  },
  owner,
)
const plainCommit = await timeIt(1000, (i) =>
  post(guarded.port, ':commit', { writes: [doc(`plain/d${i}`, i)] }, client),
)
report(
  `single-document commit, rules on (a rule without get()): p50 ${plainCommit.p50.toFixed(2)} ms, p99 ${plainCommit.p99.toFixed(2)} ms — ${(plainCommit.p50 - commit.p50).toFixed(2)} ms over rules off`,
)
const rulesCommit = await timeIt(1000, (i) =>
  post(guarded.port, ':commit', { writes: [doc(`single/d${i}`, i)] }, client),
)
report(
  `single-document commit, rules on (a rule that calls get()): p50 ${rulesCommit.p50.toFixed(2)} ms, p99 ${rulesCommit.p99.toFixed(2)} ms — ${(rulesCommit.p50 - commit.p50).toFixed(2)} ms over rules off`,
)
for (let start = 0; start < 10_000; start += 500) {
  const writes = Array.from({ length: 500 }, (_, k) => doc(`big/d${String(start + k).padStart(6, '0')}`, start + k))
  await post(guarded.adminPort, ':commit', { writes }, owner)
}
const rulesQuery = await timeIt(100, () => post(guarded.port, ':runQuery', query, client))
report(
  `runQuery on 10,000 documents, rules on (list rule with get()): p50 ${rulesQuery.p50.toFixed(1)} ms, p99 ${rulesQuery.p99.toFixed(1)} ms — ${(((rulesQuery.p50 - runQuery.p50) / runQuery.p50) * 100).toFixed(0)} % over rules off`,
)
guarded.stop()
rmSync(rulesDir, { recursive: true, force: true })

await insert(server.port, (i) => `rss/d${i}`, 80_000)
report(`RSS with ~100,000 documents: ${rssMb(server.pid).toFixed(0)} MB`)
server.stop()

// The default mode: every acknowledged commit is fsynced to SQLite's WAL before the answer.
const dataDir = mkdtempSync(join(tmpdir(), 'emulator-lite-bench-'))
const durable = await startServer(dataDir)
const durableCommit = await timeIt(1000, (i) => post(durable.port, ':commit', { writes: [doc(`single/d${i}`, i)] }))
report(
  `single-document commit, durable on disk (WAL, synchronous=FULL): p50 ${durableCommit.p50.toFixed(2)} ms, p99 ${durableCommit.p99.toFixed(2)} ms (1,000 sequential)`,
)
durable.stop()
rmSync(dataDir, { recursive: true, force: true })

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`
// The latest figures replace the file's head; the dated sections below it (comparisons, other
// benches) are history and stay.
const file = join(import.meta.dirname, '../BENCHMARKS.md')
const previous = existsSync(file) ? readFileSync(file, 'utf8') : ''
const history = previous.indexOf('\n## ')
writeFileSync(
  file,
  `# emulator-lite benchmarks\n\nMeasured by \`make bench\` (infra/emulator-lite/bench/bench.ts) on ${new Date().toISOString().slice(0, 10)}, ${machine}, in memory unless a line says otherwise, over loopback HTTP with Node's fetch (client time included).\n\n${lines.join('\n')}\n\nTargets: ready in < 1 s; single-document commit p50 < 2 ms; the 10k query p50 < 25 ms; security rules add < 1 ms p50 to a commit and < 25 % to the 10k query.\n${history === -1 ? '' : previous.slice(history)}`,
)
