// `make bench`: emulator-lite and Google's Cloud Firestore emulator (gcloud, Java) side by side on
// this machine, one after the other in one run, with the same REST requests: start-up to first
// answer, commit p50/p99, a 10k-document query, a collection group, and resident memory at 100k
// documents (the JVM's whole process group). Writes its section of BENCHMARKS.md; asserts nothing.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@bosted/stack/ports'
import { startOfficialFirestore } from '../parity/official-emulator.ts'

const cli = join(import.meta.dirname, '../src/cli.ts')
const project = 'demo-bench'
const root = `projects/${project}/databases/(default)/documents`
/** The 100k step stops here, and reports how far it got. */
const FILL_BUDGET_MS = 90_000

type Server = { name: string; host: string; readyMs: number; rssBytes(): number; stop(): Promise<void> }

async function startLite(): Promise<Server> {
  const [port, storagePort, authPort, adminPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ]
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
      '--auth-port',
      String(authPort),
      '--admin-port',
      String(adminPort),
      '--in-memory',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )
  // Every request of this bench is privileged (`Bearer owner`): emulator-lite's admin listener.
  const host = `127.0.0.1:${adminPort}`
  // `GET /` answers "Ok" on the Firestore port (the admin listener answers it as Auth).
  await untilOk(`127.0.0.1:${port}`)
  return {
    name: 'emulator-lite',
    host,
    readyMs: performance.now() - started,
    rssBytes: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
    stop: async () => {
      child.kill('SIGKILL')
    },
  }
}

async function startOfficial(): Promise<Server> {
  const started = performance.now()
  const official = await startOfficialFirestore()
  return {
    name: 'official',
    host: official.host,
    readyMs: performance.now() - started,
    rssBytes: () => official.rssBytes(),
    stop: () => official.close(),
  }
}

async function untilOk(host: string): Promise<void> {
  for (;;) {
    try {
      if ((await (await fetch(`http://${host}/`)).text()).trim() === 'Ok') return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const post = (host: string, rpc: string, body: unknown) =>
  fetch(`http://${host}/v1/${root}${rpc}`, {
    method: 'POST',
    headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => {
    const json = await r.json()
    if (!r.ok) throw new Error(`${rpc}: ${r.status} ${JSON.stringify(json).slice(0, 300)}`)
    return json
  })

const doc = (path: string, i: number) => ({
  update: {
    name: `${root}/${path}`,
    fields: {
      n: { integerValue: String(i) },
      group: { integerValue: String(i % 10) },
      text: { stringValue: `document ${i}` },
    },
  },
})

async function insert(host: string, path: (i: number) => string, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += 500) {
    const writes = Array.from({ length: Math.min(500, to - start) }, (_, k) => doc(path(start + k), start + k))
    await post(host, ':commit', { writes })
  }
}

async function timeIt(runs: number, work: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await work(i)
    samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number
  return { p50: at(0.5), p99: at(0.99) }
}

type Figures = {
  readyMs: number
  commit: { p50: number; p99: number }
  query: { p50: number; p99: number }
  group: { p50: number; p99: number }
  rssMb: number
  filled: number
  fillSeconds: number
}

async function measure(server: Server): Promise<Figures> {
  const { host } = server
  await post(host, ':commit', { writes: [doc('warm/w', 0)] })
  const commit = await timeIt(500, (i) => post(host, ':commit', { writes: [doc(`single/d${i}`, i)] }))
  await insert(host, (i) => `big/d${i}`, 0, 10_000)
  const query = await timeIt(50, () =>
    post(host, ':runQuery', {
      structuredQuery: {
        from: [{ collectionId: 'big' }],
        where: { fieldFilter: { field: { fieldPath: 'group' }, op: 'EQUAL', value: { integerValue: '3' } } },
        orderBy: [{ field: { fieldPath: 'n' }, direction: 'DESCENDING' }],
        limit: 50,
      },
    }),
  )
  await insert(host, (i) => `parents/p${i % 100}/items/d${i}`, 0, 10_000)
  const group = await timeIt(30, () =>
    post(host, ':runQuery', {
      structuredQuery: {
        from: [{ collectionId: 'items', allDescendants: true }],
        where: { fieldFilter: { field: { fieldPath: 'group' }, op: 'EQUAL', value: { integerValue: '3' } } },
        orderBy: [{ field: { fieldPath: 'n' }, direction: 'ASCENDING' }],
        limit: 50,
      },
    }),
  )
  // ~100k documents in all (20k are there already), bounded in time.
  const started = performance.now()
  let filled = 20_000
  while (filled < 100_000 && performance.now() - started < FILL_BUDGET_MS) {
    await insert(host, (i) => `rss/d${i}`, filled, filled + 5_000)
    filled += 5_000
  }
  return {
    readyMs: server.readyMs,
    commit,
    query,
    group,
    rssMb: server.rssBytes() / 2 ** 20,
    filled,
    fillSeconds: (performance.now() - started) / 1000,
  }
}

const loadAtStart = loadavg()[0] ?? 0
const results: Record<string, Figures> = {}
for (const start of [startLite, startOfficial]) {
  const server = await start()
  try {
    results[server.name] = await measure(server)
  } finally {
    await server.stop()
  }
  console.log(server.name, JSON.stringify(results[server.name]))
}
const lite = results['emulator-lite'] as Figures
const official = results.official as Figures
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2))
const ratio = (a: number, b: number) => `${(b / a).toFixed(1)}×`
const rows = [
  [
    'start-up to first answer',
    `${ms(lite.readyMs)} ms`,
    `${ms(official.readyMs)} ms`,
    ratio(lite.readyMs, official.readyMs),
  ],
  [
    'single-document commit p50 / p99 (500 sequential)',
    `${ms(lite.commit.p50)} / ${ms(lite.commit.p99)} ms`,
    `${ms(official.commit.p50)} / ${ms(official.commit.p99)} ms`,
    ratio(lite.commit.p50, official.commit.p50),
  ],
  [
    'runQuery on 10,000 documents (filter + orderBy + limit 50) p50 / p99',
    `${ms(lite.query.p50)} / ${ms(lite.query.p99)} ms`,
    `${ms(official.query.p50)} / ${ms(official.query.p99)} ms`,
    ratio(lite.query.p50, official.query.p50),
  ],
  [
    'collection group over 10,000 documents in 100 parents p50 / p99',
    `${ms(lite.group.p50)} / ${ms(lite.group.p99)} ms`,
    `${ms(official.group.p50)} / ${ms(official.group.p99)} ms`,
    ratio(lite.group.p50, official.group.p50),
  ],
  [
    `RSS at ${lite.filled.toLocaleString('en')} / ${official.filled.toLocaleString('en')} documents`,
    `${lite.rssMb.toFixed(0)} MB`,
    `${official.rssMb.toFixed(0)} MB (JVM)`,
    ratio(lite.rssMb, official.rssMb),
  ],
  [
    'writing 80,000 documents in commits of 500',
    `${lite.fillSeconds.toFixed(1)} s`,
    `${official.fillSeconds.toFixed(1)} s`,
    ratio(lite.fillSeconds, official.fillSeconds),
  ],
]
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`
const section = `<!-- parity-bench:start -->
## emulator-lite vs the official Firestore emulator (side by side)

Measured by \`make bench\` (infra/emulator-lite/bench/parity-bench.ts) on ${new Date().toISOString().slice(0, 10)}, ${machine}: emulator-lite (CLI, in memory)
and Google's Cloud Firestore emulator (gcloud 528.0.0, Java 17), one after the other, the same REST
requests with \`Bearer owner\` over loopback (client time included). Ratio = official ÷ emulator-lite
(above 1×: emulator-lite is faster or smaller). The 100k step stops after ${FILL_BUDGET_MS / 1000} s of writing.
Load average at the start: ${loadAtStart.toFixed(1)} (on 2 cores, anything above ~1 inflates the absolute
figures of both; the ratios are what to compare).

| figure | emulator-lite | official | ratio |
|---|---|---|---|
${rows.map((row) => `| ${row.join(' | ')} |`).join('\n')}
<!-- parity-bench:end -->`
console.log(`\n${section}`)
const file = join(import.meta.dirname, '../BENCHMARKS.md')
const previous = existsSync(file) ? readFileSync(file, 'utf8') : ''
const marker = /<!-- parity-bench:start -->[\s\S]*?<!-- parity-bench:end -->/
writeFileSync(file, marker.test(previous) ? previous.replace(marker, section) : `${previous.trimEnd()}\n\n${section}\n`)
process.exit(0)
