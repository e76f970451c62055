// The pilot (docker-compose.pilot.yml, docs/pilot.md) on either engine:
//   node infra/docker/pilot.ts up [--no-build]   build, start, wait until healthy, print the address
//   node infra/docker/pilot.ts down              stop (the data, certificate and backups stay)
//   node infra/docker/pilot.ts admin EMAIL [FIRST [LAST]]   a new administrator, password printed once
//   node infra/docker/pilot.ts backup            an online backup now, copied to ./backups/ on the host
//   node infra/docker/pilot.ts restore FILE      stop the backend, restore FILE, verify the access log, start
//   node infra/docker/pilot.ts audit-verify      the access log's hash chain, checked in the pilot
//   node infra/docker/pilot.ts logs              follow every service's log
// Settings come from .env (PILOT_*, see .env.example). The Compose project is `bosted-pilot` unless
// PILOT_PROJECT_NAME names another, so a developer's `make up` stack never shares its volumes.
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  baseImages,
  chooseEngine,
  composeEnvironment,
  type Engine,
  type Env,
  must,
  PodmanCompose,
  ROOT,
  type RunOptions,
  type RunResult,
  run,
  type Services,
  seconds,
  startPodman,
} from './compose.ts'
import type { Counts } from './pilot/ops.ts'

export const PILOT_FILE = 'docker-compose.pilot.yml'
export const PILOT_SERVICES: Services = {
  longRunning: ['emulators', 'api', 'web', 'ops'],
  oneShot: ['tls', 'migrate'],
  // emulator-lite's image first (better-sqlite3 compiles there), then the tools' image built on it;
  // the api and the web beside them.
  lanes: [
    ['emulators', 'tls', 'migrate', 'ops'],
    ['api', 'web'],
  ],
  startedBy: 'make pilot',
}
const say = (message: string) => console.log(`pilot: ${message}`)

/** The environment Compose sees for the pilot: .env, this process's variables, the pilot's file and project. */
export function pilotEnvironment(env: Env = process.env): Env {
  const merged = composeEnvironment(env)
  merged.COMPOSE_FILE = PILOT_FILE
  merged.COMPOSE_PROJECT_NAME = env.PILOT_PROJECT_NAME || merged.PILOT_PROJECT_NAME || 'bosted-pilot'
  return merged
}

export function pilotOrigin(env: Env): string {
  const host = env.PILOT_HOST || 'localhost'
  const port = env.PILOT_PORT || '8443'
  return port === '443' ? `https://${host}` : `https://${host}:${port}`
}

/**
 * The municipality's certificate, when PILOT_TLS_CERT and PILOT_TLS_KEY name one, copied where the
 * `tls` service reads it (.pilot/tls-input/, readable by root only); otherwise that directory is
 * emptied and the pilot keeps (or makes) its self-signed certificate.
 */
export function stageCertificate(env: Env): 'self-signed' | 'provided' {
  const dir = join(ROOT, '.pilot/tls-input')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
  const cert = env.PILOT_TLS_CERT
  const key = env.PILOT_TLS_KEY
  if (!cert && !key) return 'self-signed'
  if (!cert || !key)
    throw new Error('set both PILOT_TLS_CERT and PILOT_TLS_KEY (or neither, for a self-signed certificate)')
  for (const [name, file] of [
    ['PILOT_TLS_CERT', cert],
    ['PILOT_TLS_KEY', key],
  ] as const) {
    if (!existsSync(resolve(ROOT, file))) throw new Error(`${name}: ${file} does not exist`)
  }
  copyFileSync(resolve(ROOT, cert), join(dir, 'cert.pem'))
  copyFileSync(resolve(ROOT, key), join(dir, 'key.pem'))
  chmodSync(join(dir, 'cert.pem'), 0o600)
  chmodSync(join(dir, 'key.pem'), 0o600)
  return 'provided'
}

/** One engine's way of running the pilot's commands; `close()` when done. */
export type Pilot = {
  engine: Engine
  env: Env
  /** On podman: the Compose project (docker-compose 1.29 through podman's socket). */
  stack?: PodmanCompose
  up(): Promise<void>
  compose(args: string[], options?: RunOptions): Promise<RunResult>
  exec(service: string, args: string[], options?: RunOptions): Promise<RunResult>
  copyFrom(service: string, path: string, target: string): Promise<void>
  copyTo(service: string, file: string, path: string): Promise<void>
  logsOf(service: string): Promise<string>
  close(): Promise<void>
}

export async function pilotEngine(env: Env = pilotEnvironment(), { build = true } = {}): Promise<Pilot> {
  const engine = chooseEngine(env)
  if (engine === 'docker') {
    const compose = (args: string[], options: RunOptions = {}) =>
      run('docker', ['compose', ...args], { env, ...options })
    return {
      engine,
      env,
      async up() {
        const result = await compose(['up', ...(build ? ['--build'] : []), '--detach', '--wait'])
        if (result.code !== 0) throw new Error('docker compose up failed')
      },
      compose,
      exec: (service, args, options = {}) =>
        run('docker', ['compose', 'exec', '-T', service, ...args], { env, ...options }),
      async copyFrom(service, path, target) {
        await must('docker', ['compose', 'cp', `${service}:${path}`, target], { env })
      },
      async copyTo(service, file, path) {
        await must('docker', ['compose', 'cp', file, `${service}:${path}`], { env })
      },
      async logsOf(service) {
        return (await compose(['logs', '--no-color', service], { capture: true })).stdout
      },
      async close() {},
    }
  }
  const podman = await startPodman()
  Object.assign(env, podman.env)
  const stack = new PodmanCompose(env.COMPOSE_PROJECT_NAME ?? 'bosted-pilot', env, PILOT_SERVICES)
  return {
    engine,
    env,
    stack,
    async up() {
      Object.assign(stack.env, await baseImages(env))
      if (build) await stack.build()
      try {
        await stack.up()
      } catch (error) {
        await stack.stopTicker()
        await stack.logs(60)
        throw error
      }
      await stack.stopTicker()
    },
    compose: (args, options = {}) => run('docker-compose', args, { env: stack.env, ...options }),
    exec: (service, args, options) => stack.exec(service, args, options),
    copyFrom: (service, path, target) => stack.copyFrom(service, path, target),
    copyTo: (service, file, path) => stack.copyTo(service, file, path),
    logsOf: (service) => stack.serviceLogs(service),
    async close() {
      await stack.stopTicker()
      await podman.stop()
    },
  }
}

async function commandUp(args: string[]): Promise<void> {
  const env = pilotEnvironment()
  const certificate = stageCertificate(env)
  const started = Date.now()
  const pilot = await pilotEngine(env, { build: !args.includes('--no-build') })
  try {
    await pilot.up()
    const tls = (await pilot.logsOf('tls'))
      .split('\n')
      .map((line) => line.replace(/^.*?\|\s?/, ''))
      .filter((line) => line.startsWith('tls:'))
    // The last start's lines only: the service's log keeps every start.
    for (const line of tls.slice(certificate === 'provided' ? -1 : -3)) console.log(line)
    say(`healthy in ${seconds(started)}`)
    console.log(`Bosted pilot is ready: ${pilotOrigin(env)}`)
    say('first administrator: make pilot-admin EMAIL=name@kommune.dk (docs/pilot.md)')
  } finally {
    await pilot.close()
  }
}

async function commandDown(): Promise<void> {
  const pilot = await pilotEngine()
  try {
    const { code } = await pilot.compose(['down', '--timeout', '30'])
    process.exitCode = code
  } finally {
    await pilot.close()
  }
}

async function commandAdmin([email, first, last]: string[]): Promise<void> {
  if (!email) throw new Error('usage: make pilot-admin EMAIL=name@kommune.dk [FIRST_NAME=… LAST_NAME=…]')
  const pilot = await pilotEngine()
  try {
    const args = ['node', '--import', 'tsx', 'seed/src/pilot-admin.ts', '--email', email]
    if (first) args.push('--first-name', first)
    if (last) args.push('--last-name', last)
    const { code } = await pilot.exec('ops', args)
    process.exitCode = code
  } finally {
    await pilot.close()
  }
}

/** An online backup in the pilot, copied to ./backups/ (BACKUP_COPY_DIR) on the host; returns what it did. */
export type Backup = {
  archive: string
  bytes: number
  ms: number
  counts: Counts
  /** The copy on the host, and the time the backup and the copy took together. */
  copy: string
  totalMs: number
}

export async function takeBackup(pilot: Pilot, copyDir = join(ROOT, 'backups')): Promise<Backup> {
  const started = Date.now()
  const result = await pilot.exec('ops', ['node', 'infra/docker/pilot/ops.ts', 'backup'], { capture: true })
  if (result.code !== 0) throw new Error(`backup failed: ${(result.stderr || result.stdout).trim()}`)
  const line = result.stdout.split('\n').find((l) => l.startsWith('backup-json: '))
  if (!line) throw new Error(`backup said nothing about its archive: ${result.stdout.trim()}`)
  const made = JSON.parse(line.slice('backup-json: '.length)) as Omit<Backup, 'copy' | 'totalMs'>
  mkdirSync(copyDir, { recursive: true })
  const copy = join(copyDir, basename(made.archive))
  await pilot.copyFrom('ops', made.archive, copy)
  chmodSync(copy, 0o600)
  return { ...made, copy, totalMs: Date.now() - started, bytes: statSync(copy).size }
}

async function commandBackup() {
  const pilot = await pilotEngine()
  try {
    const made = await takeBackup(pilot)
    say(
      `backup ${made.copy} (${(made.bytes / 1024 / 1024).toFixed(1)} MB; ${made.counts.documents} documents, ${made.counts.objects} objects, ${made.counts.accounts} accounts, ${made.counts.accessLog} access-log entries) in ${made.totalMs} ms; the pilot also keeps it in its backups volume`,
    )
  } finally {
    await pilot.close()
  }
}

/**
 * Restores FILE: checked first in the pilot (changes nothing when damaged, incomplete or newer), then
 * the backend is stopped, the data replaced, the access log verified and the pilot started again.
 */
export async function restoreBackup(
  pilot: Pilot,
  file: string,
  { start = true }: { start?: boolean } = {},
): Promise<{ message: string; audit: { code: number; output: string }; restoreMs: number }> {
  const started = Date.now()
  const absolute = resolve(ROOT, file)
  if (!existsSync(absolute)) throw new Error(`${file}: no such file`)
  const inside = '/backups/restore-upload.tar.gz'
  await pilot.copyTo('ops', absolute, inside)
  const checked = await pilot.exec('ops', ['node', 'infra/docker/pilot/ops.ts', 'verify', inside], { capture: true })
  if (checked.code !== 0) {
    await pilot.exec('ops', ['rm', '-f', inside], { capture: true })
    const why = (checked.stderr || checked.stdout)
      .trim()
      .replace(/^ops: /, '')
      .replaceAll('restore-upload.tar.gz', basename(file))
    throw new Error(`restore refused: ${why}`)
  }
  await must(
    pilot.engine === 'docker' ? 'docker' : 'docker-compose',
    [...(pilot.engine === 'docker' ? ['compose'] : []), 'stop', '--timeout', '30', 'web', 'api', 'emulators'],
    {
      env: pilot.stack?.env ?? pilot.env,
    },
  )
  const restored = await pilot.exec('ops', ['node', 'infra/docker/pilot/ops.ts', 'restore', inside], { capture: true })
  await pilot.exec('ops', ['rm', '-f', inside], { capture: true })
  if (restored.code !== 0) throw new Error(`restore failed: ${(restored.stderr || restored.stdout).trim()}`)
  const audit = await pilot.exec(
    'ops',
    ['node', '--import', 'tsx', 'infra/emulator-lite/src/audit/verify-cli.ts', '--data', '/data/emulator-lite'],
    { capture: true },
  )
  const restoreMs = Date.now() - started
  if (start) await pilot.up()
  return {
    message: restored.stdout.trim(),
    audit: { code: audit.code, output: `${audit.stdout}${audit.stderr}`.trim() },
    restoreMs,
  }
}

async function commandRestore([file]: string[]): Promise<void> {
  if (!file) throw new Error('usage: make restore FILE=backups/bosted-backup-….tar.gz')
  const pilot = await pilotEngine(pilotEnvironment(), { build: false })
  try {
    const result = await restoreBackup(pilot, file)
    console.log(result.message)
    console.log(result.audit.output)
    if (result.audit.code !== 0) throw new Error('the restored access log does not verify')
    say(`restored in ${(result.restoreMs / 1000).toFixed(1)} s; the pilot is running again: ${pilotOrigin(pilot.env)}`)
  } finally {
    await pilot.close()
  }
}

async function commandAuditVerify() {
  const pilot = await pilotEngine()
  try {
    const { code } = await pilot.exec('ops', [
      'node',
      '--import',
      'tsx',
      'infra/emulator-lite/src/audit/verify-cli.ts',
      '--data',
      '/data/emulator-lite',
    ])
    process.exitCode = code
  } finally {
    await pilot.close()
  }
}

async function commandLogs() {
  const pilot = await pilotEngine()
  try {
    await pilot.compose(['logs', '--follow', '--tail=200'])
  } finally {
    await pilot.close()
  }
}

async function main([command, ...args]: string[]): Promise<void> {
  if (command === 'up') return commandUp(args)
  if (command === 'down') return commandDown()
  if (command === 'admin') return commandAdmin(args)
  if (command === 'backup') return commandBackup()
  if (command === 'restore') return commandRestore(args)
  if (command === 'audit-verify') return commandAuditVerify()
  if (command === 'logs') return commandLogs()
  console.error(
    'usage: node infra/docker/pilot.ts up | down | admin EMAIL | backup | restore FILE | audit-verify | logs (the test: node infra/docker/test-pilot.ts)',
  )
  process.exitCode = 2
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`pilot: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  })
}
