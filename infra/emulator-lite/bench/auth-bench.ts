// `make bench` (Auth): emulator-lite's Auth and the official Auth emulator side by side — start-up
// to healthy, sign-in p50/p99, createUser p50. Prints figures; asserts nothing.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@bosted/stack/ports'
import { startAuthEmulator } from '@bosted/stack/services/auth-emulator'

const CLI = join(import.meta.dirname, '../src/cli.ts')
const PROJECT = 'demo-auth-bench'
const RUNS = Number(process.env.AUTH_BENCH_RUNS ?? 200)

/** `adminHost`: where the owner credential goes (emulator-lite's admin listener; the official emulator's one port). */
type Running = { name: string; host: string; adminHost: string; readyMs: number; stop(): Promise<void> }

async function waitHealthy(host: string): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`http://${host}/`)).ok) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

async function startLite(dataDir: string): Promise<Running> {
  const port = await freePort()
  const adminPort = await freePort()
  const started = performance.now()
  const child = spawn(
    process.execPath,
    [
      ...['--import', 'tsx', CLI, '--firestore-port', '0', '--storage-port', '0', '--auth-port', String(port)],
      ...['--admin-port', String(adminPort)],
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, FIREBASE_PROJECT_ID: PROJECT, EMULATOR_LITE_DATA: dataDir },
    },
  )
  const host = `127.0.0.1:${port}`
  await waitHealthy(host)
  return {
    name: 'emulator-lite (durable)',
    host,
    adminHost: `127.0.0.1:${adminPort}`,
    readyMs: performance.now() - started,
    async stop() {
      child.kill('SIGKILL')
    },
  }
}

async function startOfficial(workDir: string): Promise<Running> {
  const port = await freePort()
  const started = performance.now()
  const service = await startAuthEmulator({
    host: '127.0.0.1',
    port,
    hubPort: await freePort(),
    loggingPort: await freePort(),
    projectId: PROJECT,
    workDir,
    persist: false,
  })
  const host = `127.0.0.1:${port}`
  await waitHealthy(host)
  return {
    name: 'official (firebase-tools)',
    host,
    adminHost: host,
    readyMs: performance.now() - started,
    stop: () => service.stop(),
  }
}

async function post(host: string, path: string, body: unknown, owner: boolean): Promise<void> {
  const response = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/${path}${owner ? '' : '?key=bench'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(owner ? { authorization: 'Bearer owner' } : {}) },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  await response.arrayBuffer()
}

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

async function measure(target: Running) {
  const createUser = await timeIt(RUNS, (i) =>
    post(
      target.adminHost,
      `projects/${PROJECT}/accounts`,
      { localId: `u${i}`, email: `u${i}@bench.dk`, password: 'hemmelig1' },
      true,
    ),
  )
  // Warm-up, then sign-ins spread over the users just created.
  await post(target.host, 'accounts:signInWithPassword', { email: 'u0@bench.dk', password: 'hemmelig1' }, false)
  const signIn = await timeIt(RUNS, (i) =>
    post(
      target.host,
      'accounts:signInWithPassword',
      { email: `u${i % RUNS}@bench.dk`, password: 'hemmelig1', returnSecureToken: true },
      false,
    ),
  )
  return { createUser, signIn }
}

const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(16)

const scratch = mkdtempSync(join(tmpdir(), 'auth-bench-'))
const rows: string[] = []
try {
  for (const start of [startLite, startOfficial]) {
    const target = await start(join(scratch, start.name))
    try {
      const { createUser, signIn } = await measure(target)
      rows.push(`${target.name.padEnd(28)}${ms(target.readyMs)}${ms(signIn.p50)}${ms(signIn.p99)}${ms(createUser.p50)}`)
    } finally {
      await target.stop()
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
console.log(`Auth emulators, ${RUNS} sequential requests each (password hashing: scrypt N=16384 in emulator-lite)`)
const header = ['start-up', 'sign-in p50', 'sign-in p99', 'createUser p50'].map((label) => label.padStart(16)).join('')
console.log(`${'implementation'.padEnd(28)}${header}`)
for (const row of rows) console.log(row)
