import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, expect, test } from 'vitest'
import { readStackEnv } from './env.ts'
import { freePort, isPortFree } from './ports.ts'
import { isHealthy, type RunningService, startService } from './process.ts'
import { identify, readRunFile, StackAlreadyRunningError, writeRunFile } from './run-file.ts'
import { startStack } from './stack.ts'
import { startTestStack } from './testing.ts'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A tiny HTTP service: answers 200, prints a line every 20 ms, and exits after `exitAfterMs` when given. */
function tinyServer(port: number, exitAfterMs?: number): string[] {
  const script = `
    require('node:http').createServer((_, res) => res.end('ok')).listen(${port}, '127.0.0.1', () => console.log('listening'))
    setInterval(() => console.log('tick ' + 'x'.repeat(200)), 20)
    ${exitAfterMs === undefined ? '' : `setTimeout(() => process.exit(3), ${exitAfterMs})`}
  `
  return ['-e', script]
}

async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = await check()
    if (value) return value as NonNullable<T>
    await sleep(50)
  }
  throw new Error(`gave up waiting for ${what}`)
}

async function startTiny(
  options: { port: number; logFile?: string; exitAfterMs?: number } & Partial<Parameters<typeof startService>[0]>,
  reports: string[],
): Promise<RunningService> {
  const service = await startService({
    name: 'tiny',
    command: process.execPath,
    args: tinyServer(options.port, options.exitAfterMs),
    cwd: tmpdir(),
    healthUrl: `http://127.0.0.1:${options.port}/`,
    logFile: options.logFile ?? join(mkdtempSync(join(tmpdir(), 'bosted-tiny-')), 'tiny.log'),
    report: (line) => reports.push(line),
    ...options,
  })
  cleanups.push(() => service.stop())
  return service
}

test('a log file that cannot be written (ENOSPC) is reported once and the service keeps running', async () => {
  const reports: string[] = []
  const port = await freePort()
  // Every write to /dev/full fails with ENOSPC, as on a full disk.
  const service = await startTiny({ port, logFile: '/dev/full' }, reports)
  await until('the log failure report', () => reports.length > 0)
  // The service goes on printing (a line every 20 ms) into the broken log for a while.
  await sleep(500)
  expect(reports).toEqual([
    'tiny: cannot write its log /dev/full (ENOSPC); its output is dropped until that works again, the service keeps running',
  ])
  expect(service.child.exitCode).toBeNull()
  expect(await isHealthy(`http://127.0.0.1:${port}/`)).toBe(true)
})

test('a service killed with SIGKILL is restarted, and the launcher says so', async () => {
  const reports: string[] = []
  const port = await freePort()
  const service = await startTiny(
    { port, restart: { initialDelayMs: 100, maxDelayMs: 1_000, healthyResetMs: 60_000, reportAfterCrashes: 5 } },
    reports,
  )
  const firstPid = service.child.pid
  service.child.kill('SIGKILL')
  await until('the restart', () => reports.some((line) => line.startsWith('tiny is back')))
  expect(reports[0]).toBe('tiny exited (signal SIGKILL); restarting in 100 ms (restart 1)')
  expect(service.restarts).toBe(1)
  expect(service.child.pid).not.toBe(firstPid)
  expect(await isHealthy(`http://127.0.0.1:${port}/`)).toBe(true)
})

test('a service that keeps crashing is named with its log, the delay doubles, and stop ends the retries', async () => {
  const reports: string[] = []
  const port = await freePort()
  const service = await startTiny(
    {
      port,
      exitAfterMs: 400,
      restart: { initialDelayMs: 50, maxDelayMs: 200, healthyResetMs: 60_000, reportAfterCrashes: 3 },
    },
    reports,
  )
  await until('the keeps-crashing report', () => reports.some((line) => line.startsWith('tiny keeps crashing')))
  const exits = reports.filter((line) => line.startsWith('tiny exited'))
  expect(exits.slice(0, 3)).toEqual([
    'tiny exited (code 3); restarting in 50 ms (restart 1)',
    'tiny exited (code 3); restarting in 100 ms (restart 2)',
    'tiny exited (code 3); restarting in 200 ms (restart 3)',
  ])
  expect(reports.find((line) => line.startsWith('tiny keeps crashing'))).toMatch(
    /^tiny keeps crashing: 3 times in a row, each within 60 s of starting\. Still retrying every 200 ms at most\. Its log: .*tiny\.log\n {2}.*tick/,
  )
  await service.stop()
  const restarts = service.restarts
  await sleep(600)
  expect(service.restarts).toBe(restarts)
  expect(await isPortFree(port)).toBe(true)
})

test('the native stack brings a SIGKILLed api back, and /api/health answers again', async () => {
  const stack = await startTestStack({ api: true, serveWeb: false, seed: false, build: false })
  cleanups.push(() => stack.stop())
  const api = stack.services.find((service) => service.name === 'api')
  expect(api).toBeDefined()
  const firstPid = api?.child.pid
  api?.child.kill('SIGKILL')
  const health = `${stack.urls.api}/health`
  await until('the api restarted', () => api && api.restarts === 1 && api.child.pid !== firstPid)
  await until('/api/health 200', () => isHealthy(health), 60_000)
  const response = await fetch(health)
  expect(response.status).toBe(200)
  expect(await response.json()).toMatchObject({ status: 'ok' })
}, 120_000)

/** A process detached from us that holds `port`, as a service of a launcher that died would. */
async function orphanHolding(port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-e', `require('node:net').createServer().listen(${port}, '127.0.0.1', () => console.log('held'))`],
    { detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
  )
  await once(child.stdout, 'data')
  cleanups.push(() => {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL')
    } catch {}
  })
  return child
}

/** The pid of a process that has exited: a launcher that died. */
async function deadPid(): Promise<{ pid: number; startTime: string }> {
  const child = spawn(process.execPath, ['-e', ''])
  const identity = { pid: child.pid ?? 0, startTime: 'gone' }
  await once(child, 'exit')
  return identity
}

test('make start stops the services a dead launcher left holding its ports, then starts', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosted-orphans-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const ports = {
    APP_PORT: await freePort(),
    API_PORT: await freePort(),
    AUTH_PORT: await freePort(),
    FIRESTORE_PORT: await freePort(),
    STORAGE_PORT: await freePort(),
    EMULATOR_ADMIN_PORT: await freePort(),
  }
  const env = readStackEnv({
    ...Object.fromEntries(Object.entries(ports).map(([key, value]) => [key, String(value)])),
    DATA_DIR: dataDir,
  })
  const orphan = await orphanHolding(ports.STORAGE_PORT)
  const runDir = join(dataDir, 'run', String(ports.APP_PORT))
  mkdirSync(runDir, { recursive: true })
  writeRunFile(runDir, {
    launcher: await deadPid(),
    services: [{ name: 'emulator-lite', ...identify(orphan.pid ?? 0) }],
  })
  const lines: string[] = []
  const stack = await startStack({
    env,
    persist: false,
    build: false,
    serveWeb: false,
    seed: false,
    api: false,
    log: (line) => lines.push(line),
  })
  cleanups.push(() => stack.stop())
  expect(lines[0]).toBe(`stopped 1 process left over from a previous run that died (emulator-lite pid ${orphan.pid})`)
  expect(orphan.exitCode !== null || orphan.signalCode !== null).toBe(true)
  // The new run recorded itself in the run file.
  expect(readRunFile(runDir)?.launcher.pid).toBe(process.pid)
  expect(readRunFile(runDir)?.services.map((service) => service.name)).toEqual(['emulator-lite'])
  await stack.stop()
  expect(readRunFile(runDir)).toBeNull()
})

test('make start refuses while the launcher of the recorded run still lives, naming its pid and the command', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosted-orphans-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const launcher = await orphanHolding(await freePort())
  const port = await freePort()
  const runDir = join(dataDir, 'run', String(port))
  writeRunFile(runDir, { launcher: identify(launcher.pid ?? 0), services: [] })
  const env = readStackEnv({ APP_PORT: String(port), DATA_DIR: dataDir })
  const starting = startStack({ env, persist: false, build: false, serveWeb: false, seed: false, api: false })
  await expect(starting).rejects.toThrow(StackAlreadyRunningError)
  await expect(starting).rejects.toThrow(
    `Bosted is already running from another make start (pid ${launcher.pid}). Stop it with: kill ${launcher.pid}`,
  )
  expect(launcher.exitCode).toBeNull()
})

test('a process the run file does not name is never signalled: make start names the port instead', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosted-orphans-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const ports = { APP_PORT: await freePort(), AUTH_PORT: await freePort() }
  const stranger = await orphanHolding(ports.AUTH_PORT)
  const runDir = join(dataDir, 'run', String(ports.APP_PORT))
  // The recorded service's pid now belongs to another process (a different start time).
  writeRunFile(runDir, {
    launcher: await deadPid(),
    services: [{ name: 'api', pid: stranger.pid ?? 0, startTime: 'another process' }],
  })
  const env = readStackEnv({ APP_PORT: String(ports.APP_PORT), AUTH_PORT: String(ports.AUTH_PORT), DATA_DIR: dataDir })
  await expect(
    startStack({ env, persist: false, build: false, serveWeb: false, seed: false, api: false }),
  ).rejects.toThrow(`Port ${ports.AUTH_PORT} is already in use (AUTH_PORT)`)
  expect(stranger.exitCode).toBeNull()
})

test('an api that answers 503 degraded (a full disk) counts as up when told so, and as not ready otherwise', async () => {
  const port = await freePort()
  const script = `require('node:http').createServer((_, res) => { res.writeHead(503, { 'content-type': 'application/json' }); res.end(JSON.stringify({ status: 'degraded', reason: 'full' })) }).listen(${port}, '127.0.0.1')`
  const spec = {
    name: 'degraded',
    command: process.execPath,
    args: ['-e', script],
    cwd: tmpdir(),
    healthUrl: `http://127.0.0.1:${port}/`,
    logFile: join(mkdtempSync(join(tmpdir(), 'bosted-tiny-')), 'degraded.log'),
    restart: false as const,
    readyTimeoutMs: 3_000,
  }
  await expect(startService(spec)).rejects.toThrow(/was not healthy/)
  const service = await startService({ ...spec, readyWhenDegraded: true })
  cleanups.push(() => service.stop())
  expect(service.child.exitCode).toBeNull()
})
