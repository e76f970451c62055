// `make bench` (issue 35): Firestore listeners through the official SDKs against emulator-lite on
// loopback, signed-in clients, rules on. Write → snapshot latency in another client (gRPC: the full
// SDK under Node; WebChannel: the SDK's browser build, as test/webchannel.int.test.ts loads it), the
// emulator's RSS with 1,000 idle listeners (read from /proc/<pid>/status, outside its process), and
// 100 active listeners under 200 writes/s. Prints figures and asserts nothing.
//
// The emulator runs as a child process; each client part runs in its own process too (this file with
// `client <part>`), so the gRPC build and the browser build of the SDK never share one firebase/app registry.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { freePort } from '@bosted/stack/ports'
import { deleteApp, initializeApp } from 'firebase/app'
import { connectAuthEmulator, initializeAuth, inMemoryPersistence, signInWithCustomToken } from 'firebase/auth'
import { signCustomToken } from '../src/auth/custom-token.ts'
import type { ServiceAccountKey } from '../src/auth/keys.ts'

const PROJECT = 'demo-listen-bench'
const DATABASE = `projects/${PROJECT}/databases/(default)`
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /persons/{personId}/{rest=**} { allow read, write: if request.auth != null; }
  }
}`
const cli = join(import.meta.dirname, '../src/cli.ts')

type Config = { firestorePort: number; authPort: number; dataDir: string }
type Sdk = typeof import('firebase/firestore')

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number)
const ms = (value: number) => `${value.toFixed(1)} ms`
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

// ---------------------------------------------------------------- client side (a child process)

async function loadSdk(transport: string): Promise<Sdk> {
  if (transport === 'grpc') return import('firebase/firestore')
  const pkg = createRequire(import.meta.url).resolve('@firebase/firestore/package.json')
  return (await import(pathToFileURL(join(dirname(pkg), 'dist/index.esm.js')).href)) as Sdk
}

function serviceAccount(config: Config): ServiceAccountKey {
  return JSON.parse(readFileSync(join(config.dataDir, 'service-account.json'), 'utf8')) as ServiceAccountKey
}

async function idToken(config: Config, uid: string): Promise<string> {
  const response = await fetch(
    `http://127.0.0.1:${config.authPort}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: signCustomToken(serviceAccount(config), uid, { userRole: 'user' }) }),
    },
  )
  return ((await response.json()) as { idToken: string }).idToken
}

/** A signed-in SDK client (its own app, its own stream). */
async function client(sdk: Sdk, config: Config, name: string, uid: string) {
  const app = initializeApp({ projectId: PROJECT, apiKey: 'fake-api-key' }, name)
  const auth = initializeAuth(app, { persistence: inMemoryPersistence })
  connectAuthEmulator(auth, `http://127.0.0.1:${config.authPort}`, { disableWarnings: true })
  await signInWithCustomToken(auth, signCustomToken(serviceAccount(config), uid, { userRole: 'user' }))
  const db = sdk.initializeFirestore(app, {})
  sdk.connectFirestoreEmulator(db, '127.0.0.1', config.firestorePort)
  return {
    db,
    async close() {
      await sdk.terminate(db)
      await deleteApp(app)
    },
  }
}

/** Another client's write: a REST commit with the writer's own ID token. */
async function restSet(config: Config, token: string, path: string, fields: Record<string, unknown>) {
  const response = await fetch(`http://127.0.0.1:${config.firestorePort}/v1/${DATABASE}/documents:commit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ writes: [{ update: { name: `${DATABASE}/documents/${path}`, fields } }] }),
  })
  await response.arrayBuffer()
  return response.status
}

/** One listener, one writer: each write is made once the previous one was seen. */
async function latency(sdk: Sdk, config: Config, samples: number) {
  const writer = await idToken(config, 'writer')
  const reader = await client(sdk, config, 'reader', 'reader')
  const path = 'persons/p1/bench/latency'
  await restSet(config, writer, path, { n: { integerValue: '-1' } })
  let waiting: { n: number; resolve: () => void } | undefined
  let errors = 0
  const unsubscribe = sdk.onSnapshot(
    sdk.doc(reader.db, path),
    (snapshot) => {
      if (waiting && snapshot.get('n') === waiting.n) waiting.resolve()
    },
    () => errors++,
  )
  const seen = (n: number) => new Promise<void>((resolve) => (waiting = { n, resolve }))
  await seen(-1).then(
    () => {},
    () => {},
  )
  const times: number[] = []
  for (let i = 0; i < samples + 10; i++) {
    const arrived = seen(i)
    const started = performance.now()
    await restSet(config, writer, path, { n: { integerValue: String(i) } })
    await arrived
    if (i >= 10) times.push(performance.now() - started) // the first 10 warm up
  }
  unsubscribe()
  await reader.close()
  times.sort((a, b) => a - b)
  return { samples: times.length, p50: percentile(times, 50), p99: percentile(times, 99), errors }
}

/** `clients` SDK clients with `perClient` document listeners each, all waiting for their first snapshot. */
async function openListeners(sdk: Sdk, config: Config, clients: number, perClient: number, prefix: string, offset = 0) {
  const opened: { close(): Promise<void>; unsubscribes: (() => void)[] }[] = []
  const onChange: ((index: number, n: number) => void)[] = []
  let errors = 0
  const first: Promise<void>[] = []
  for (let c = offset; c < offset + clients; c++) {
    const each = await client(sdk, config, `${prefix}-${c}`, `user-${c}`)
    const unsubscribes: (() => void)[] = []
    for (let l = 0; l < perClient; l++) {
      const index = c * perClient + l
      first.push(
        new Promise<void>((resolve) => {
          unsubscribes.push(
            sdk.onSnapshot(
              sdk.doc(each.db, `persons/p${index % 50}/bench/${prefix}-${index}`),
              (snapshot) => {
                resolve()
                const n = snapshot.get('n')
                if (typeof n === 'number') for (const listener of onChange) listener(index, n)
              },
              () => {
                errors++
                resolve()
              },
            ),
          )
        }),
      )
    }
    opened.push({ close: each.close, unsubscribes })
  }
  await Promise.all(first)
  return {
    onChange,
    errors: () => errors,
    async close() {
      for (const each of opened) {
        for (const unsubscribe of each.unsubscribes) unsubscribe()
        await each.close()
      }
    },
  }
}

/** Holds listeners open until stdin closes: the parent reads the emulator's RSS meanwhile. */
async function idle(sdk: Sdk, config: Config, clients: number, perClient: number, offset: number) {
  const listeners = await openListeners(sdk, config, clients, perClient, `idle-${perClient}`, offset)
  process.stdout.write(`${JSON.stringify({ ready: true, errors: listeners.errors() })}\n`)
  await new Promise((resolve) => process.stdin.on('end', resolve).resume())
  await listeners.close()
  return { errors: listeners.errors() }
}

/** 100 listeners on 100 documents; writes spread over them at `rate` per second for `seconds`, ≤ 32 in flight. */
async function active(sdk: Sdk, config: Config, rate: number, seconds: number) {
  const count = 100
  const writer = await idToken(config, 'writer')
  const listeners = await openListeners(sdk, config, 10, count / 10, 'active')
  const sent = new Map<string, number>()
  const times: number[] = []
  listeners.onChange.push((index, n) => {
    const at = sent.get(`${index}:${n}`)
    if (at !== undefined) {
      times.push(performance.now() - at)
      sent.delete(`${index}:${n}`)
    }
  })
  let committed = 0
  let failed = 0
  const failures: Record<string, number> = {}
  const inFlight = new Set<Promise<void>>()
  const started = performance.now()
  for (let i = 0; performance.now() - started < seconds * 1000; i++) {
    const due = started + (i * 1000) / rate
    const wait = due - performance.now()
    if (wait > 0) await sleep(wait)
    // At most 32 commits in flight (a client's connection pool): when the emulator falls behind, the
    // achieved rate drops instead of the queue growing without bound.
    while (inFlight.size >= 32) await Promise.race(inFlight)
    const index = i % count
    sent.set(`${index}:${i}`, performance.now())
    const write = restSet(config, writer, `persons/p${index % 50}/bench/active-${index}`, {
      n: { integerValue: String(i) },
    }).then(
      (status) => {
        if (status === 200) committed++
        else {
          failed++
          failures[status] = (failures[status] ?? 0) + 1
        }
      },
      (error: Error) => {
        failed++
        const key = String((error.cause as { code?: string } | undefined)?.code ?? error.message)
        failures[key] = (failures[key] ?? 0) + 1
      },
    )
    inFlight.add(write)
    void write.finally(() => inFlight.delete(write))
  }
  await Promise.all(inFlight)
  const elapsed = (performance.now() - started) / 1000
  await sleep(2000) // the last snapshots
  const unseen = sent.size
  await listeners.close()
  times.sort((a, b) => a - b)
  return {
    target: rate,
    achieved: committed / elapsed,
    committed,
    failedWrites: failed,
    failures,
    listenerErrors: listeners.errors(),
    snapshots: times.length,
    unseen,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
  }
}

async function clientMain([part, transport, json]: string[]) {
  const config = JSON.parse(json as string) as Config & { clients?: number; perClient?: number; offset?: number }
  const sdk = await loadSdk(transport as string)
  const result =
    part === 'latency'
      ? await latency(sdk, config, 200)
      : part === 'idle'
        ? await idle(sdk, config, config.clients ?? 100, config.perClient ?? 10, config.offset ?? 0)
        : await active(sdk, config, 200, Number(process.env.LISTEN_BENCH_SECONDS ?? 10))
  process.stdout.write(`${JSON.stringify(result)}\n`)
  process.exit(0)
}

// ---------------------------------------------------------------- the parent

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((each) => each.startsWith('VmRSS:'))
  return Number(line?.split(/\s+/)[1]) / 1024
}

/** Runs a client part in its own process; resolves with the last JSON line it printed. */
function runClient(
  part: string,
  transport: string,
  config: Config & Record<string, unknown>,
  onLine?: (line: Record<string, unknown>, child: ChildProcess) => void,
) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, 'client', part, transport, JSON.stringify(config)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  let last: Record<string, unknown> = {}
  let buffered = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString()
    let newline = buffered.indexOf('\n')
    while (newline >= 0) {
      const line = buffered.slice(0, newline)
      buffered = buffered.slice(newline + 1)
      newline = buffered.indexOf('\n')
      if (!line.startsWith('{')) continue
      last = JSON.parse(line) as Record<string, unknown>
      onLine?.(last, child)
    }
  })
  return new Promise<Record<string, unknown>>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(last) : reject(new Error(`${part} ${transport} exited ${code}`)))),
  )
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-lite-listen-bench-'))
  writeFileSync(join(dir, 'firestore.rules'), RULES)
  const config: Config = { firestorePort: await freePort(), authPort: await freePort(), dataDir: join(dir, 'data') }
  const emulator = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      cli,
      '--firestore-port',
      String(config.firestorePort),
      '--storage-port',
      String(await freePort()),
      '--admin-port',
      String(await freePort()),
      '--auth-port',
      String(config.authPort),
      '--project',
      PROJECT,
      '--data',
      config.dataDir,
      '--firestore-rules',
      join(dir, 'firestore.rules'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let output = ''
  emulator.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  while (!output.includes('emulator-lite ready')) {
    if (emulator.exitCode !== null) throw new Error(`emulator-lite exited: ${output}`)
    await sleep(50)
  }
  const pid = emulator.pid as number
  const lines: string[] = []
  const print = (line: string) => {
    console.log(line)
    lines.push(line)
  }
  try {
    const date = new Date().toISOString()
    const load = loadavg().map((each) => each.toFixed(2))
    print(
      `${date}, load average ${load.join(' ')} (1/5/15 min), Node ${process.version}, loopback, rules on, signed-in clients`,
    )
    for (const transport of ['grpc', 'webchannel']) {
      const result = (await runClient('latency', transport, config)) as {
        samples: number
        p50: number
        p99: number
        errors: number
      }
      print(
        `write → snapshot in another client, ${transport === 'grpc' ? 'gRPC (full SDK, Node)' : 'WebChannel (browser build)'}: p50 ${ms(result.p50)}, p99 ${ms(result.p99)} (${result.samples} writes one at a time, REST commit with the writer's ID token; listener errors ${result.errors})`,
      )
    }
    // 1,000 idle listeners twice: 100 SDK clients (streams) × 10 targets, and 1,000 clients × 1 target
    // (four client processes of 250). RSS is read 3 s after every listener had its first snapshot.
    for (const [processes, clients, perClient] of [
      [1, 100, 10],
      [4, 250, 1],
    ] as const) {
      const before = rssMb(pid)
      let during = 0
      let ready = 0
      const children: ChildProcess[] = []
      const results = await Promise.all(
        Array.from({ length: processes }, (_, p) =>
          runClient('idle', 'grpc', { ...config, clients, perClient, offset: p * clients }, (line, child) => {
            if (!line.ready) return
            children.push(child)
            if (++ready < processes) return
            void sleep(3000).then(() => {
              during = rssMb(pid)
              for (const each of children) each.stdin?.end()
            })
          }),
        ),
      )
      const errors = results.reduce((sum, each) => sum + Number(each.errors ?? 0), 0)
      print(
        `1,000 idle listeners (${(processes * clients).toLocaleString('en')} gRPC SDK clients × ${perClient} document target${perClient > 1 ? 's' : ''}): emulator-lite RSS ${before.toFixed(0)} MB before, ${during.toFixed(0)} MB with them open (+${(during - before).toFixed(0)} MB; listener errors ${errors})`,
      )
    }
    const activeResult = (await runClient('active', 'grpc', config)) as Record<string, number> & { failures: unknown }
    print(
      `100 active listeners (10 gRPC SDK clients × 10 documents), ${activeResult.target} writes/s asked for ${process.env.LISTEN_BENCH_SECONDS ?? 10} s: achieved ${activeResult.achieved?.toFixed(0)} writes/s (${activeResult.committed} committed, ${activeResult.failedWrites} failed: ${JSON.stringify(activeResult.failures)}), snapshot latency p50 ${ms(activeResult.p50 as number)}, p99 ${ms(activeResult.p99 as number)} (${activeResult.snapshots} seen, ${activeResult.unseen} unseen or coalesced), listener errors ${activeResult.listenerErrors}; RSS after ${rssMb(pid).toFixed(0)} MB`,
    )
  } finally {
    emulator.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === 'client') await clientMain(process.argv.slice(3))
else await main()
