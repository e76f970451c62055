// Entrypoint of the `emulators` container, in both of its images:
//   --mode official  firebase-tools' Auth, Firestore and Storage emulators plus the Emulator UI (Java 21)
//   --mode lite      emulator-lite alone: Auth, Firestore and Storage, every write durable in SQLite,
//                    plus its admin listener (EMULATOR_ADMIN_PORT) for the api and the seed
// It writes firebase.json from the environment (ports are the same inside and outside the container,
// because the emulators and the UI tell browsers their own ports), keeps the data under DATA_DIR
// (a named volume) with --import / --export-on-exit, forwards SIGTERM so the export runs, and exits
// when any emulator exits so Docker's restart policy and healthcheck see it.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const here = dirname(fileURLToPath(import.meta.url))
const APP_ROOT = resolve(here, '../../..')

type Env = Record<string, string | undefined>
export type Mode = 'official' | 'lite'
export type Options = ReturnType<typeof readOptions>
type Endpoint = { host: string; port: number }
export type FirebaseConfig = {
  emulators: {
    auth: Endpoint
    hub: Endpoint
    logging: Endpoint
    singleProjectMode: boolean
    firestore?: Endpoint & { websocketPort: number }
    storage?: Endpoint
    ui: { enabled: boolean; host?: string; port?: number }
  }
  firestore?: { rules: string }
  storage?: { rules: string }
}

const port = (env: Env, name: string, fallback: number) => {
  const value = Number(env[name] ?? fallback)
  if (!Number.isInteger(value) || value < 1 || value > 65_535)
    throw new Error(`${name} must be a port, got ${env[name]}`)
  return value
}

/** Everything the entrypoint reads, with the README's defaults. */
export function readOptions(env: Env, mode: string) {
  if (mode !== 'official' && mode !== 'lite') throw new Error(`--mode must be official or lite, got ${mode}`)
  return {
    mode: mode as Mode,
    projectId: env.FIREBASE_PROJECT_ID || 'demo-bosted',
    host: env.EMULATORS_HOST || '0.0.0.0',
    ports: {
      auth: port(env, 'AUTH_PORT', 9099),
      firestore: port(env, 'FIRESTORE_PORT', 8080),
      firestoreWebSocket: port(env, 'FIRESTORE_WS_PORT', 9150),
      storage: port(env, 'STORAGE_PORT', 9199),
      ui: port(env, 'EMULATOR_UI_PORT', 4000),
      hub: port(env, 'EMULATOR_HUB_PORT', 4400),
      logging: port(env, 'EMULATOR_LOGGING_PORT', 4500),
      // emulator-lite's privileged listener: on the Compose network only, never published.
      admin: port(env, 'EMULATOR_ADMIN_PORT', 9098),
    },
    dataDir: resolve(env.DATA_DIR || '/data'),
    workDir: resolve(env.EMULATORS_WORK_DIR || '/tmp/bosted-emulators'),
    firebaseBin: env.FIREBASE_BIN || join(APP_ROOT, 'node_modules/.bin/firebase'),
    emulatorLiteCli: env.EMULATOR_LITE_CLI || join(APP_ROOT, 'infra/emulator-lite/src/cli.ts'),
    rulesDir: env.RULES_DIR || APP_ROOT,
    // A pilot (docker-compose.pilot.yml): nobody signs themselves up on the public Auth endpoint.
    disableSignUp: env.DISABLE_SIGN_UP === 'true',
  }
}

export function firebaseConfig(options: Options): FirebaseConfig {
  const { host, ports } = options
  const emulators = {
    auth: { host, port: ports.auth },
    hub: { host, port: ports.hub },
    logging: { host, port: ports.logging },
    singleProjectMode: true,
  }
  if (options.mode === 'lite') return { emulators: { ...emulators, ui: { enabled: false } } }
  return {
    emulators: {
      ...emulators,
      firestore: { host, port: ports.firestore, websocketPort: ports.firestoreWebSocket },
      storage: { host, port: ports.storage },
      ui: { enabled: true, host, port: ports.ui },
    },
    firestore: { rules: join(options.rulesDir, 'firestore.rules') },
    storage: { rules: join(options.rulesDir, 'storage.rules') },
  }
}

/** Where firebase-tools exports to on a clean stop, and imports from when an export is there. */
export function exportDir(options: Options): string {
  return join(options.dataDir, options.mode === 'lite' ? 'auth' : 'export')
}

/** firebase-tools' arguments; `hasExport`: whether a complete export (its metadata file) exists. */
export function firebaseArgs(options: Options, hasExport: boolean): string[] {
  const only = options.mode === 'lite' ? 'auth' : 'auth,firestore,storage'
  const target = exportDir(options)
  return [
    'emulators:start',
    '--only',
    only,
    '--project',
    options.projectId,
    '--config',
    join(options.workDir, 'firebase.json'),
    ...(hasExport ? ['--import', target] : []),
    '--export-on-exit',
    target,
  ]
}

/**
 * emulator-lite's arguments; `hasAuthExport`: whether a volume from before (firebase-tools' Auth
 * export) is there to import once.
 */
export function emulatorLiteArgs(options: Options, hasAuthExport = false): string[] {
  return [
    '--import',
    'tsx',
    options.emulatorLiteCli,
    '--host',
    options.host,
    '--firestore-port',
    String(options.ports.firestore),
    '--storage-port',
    String(options.ports.storage),
    '--auth-port',
    String(options.ports.auth),
    // For the api and the seed (their *_EMULATOR_HOST point here); Compose publishes no port for it.
    '--admin-port',
    String(options.ports.admin),
    '--admin-host',
    options.host,
    '--project',
    options.projectId,
    ...(hasAuthExport ? ['--import-auth', exportDir(options)] : []),
    '--data',
    join(options.dataDir, 'emulator-lite'),
    '--firestore-rules',
    join(options.rulesDir, 'firestore.rules'),
    '--storage-rules',
    join(options.rulesDir, 'storage.rules'),
    '--token-downloads-need-rules',
    'persons/',
    ...(options.disableSignUp ? ['--disable-sign-up'] : []),
  ]
}

/** Starts the emulators and resolves with the exit code the container should end with. */
export async function run(options: Options): Promise<number> {
  mkdirSync(options.workDir, { recursive: true })
  mkdirSync(options.dataDir, { recursive: true })
  writeFileSync(join(options.workDir, 'firebase.json'), `${JSON.stringify(firebaseConfig(options), null, 2)}\n`)
  const hasExport = existsSync(join(exportDir(options), 'firebase-export-metadata.json'))
  const childEnv: Env = { ...process.env, NO_UPDATE_NOTIFIER: '1' }
  // firebase-tools would talk to these instead of starting its own.
  for (const name of ['FIREBASE_AUTH_EMULATOR_HOST', 'FIRESTORE_EMULATOR_HOST', 'FIREBASE_STORAGE_EMULATOR_HOST']) {
    delete childEnv[name]
  }
  console.log(
    `emulators (${options.mode}): project ${options.projectId}, data in ${options.dataDir}${hasExport ? ' (importing the last export)' : ' (empty)'}`,
  )
  // Lite: emulator-lite serves Auth too, so every account change is in SQLite the moment it is
  // acknowledged; accounts an older volume holds as firebase-tools' export are imported once.
  const children =
    options.mode === 'lite'
      ? [
          spawn(process.execPath, emulatorLiteArgs(options, hasExport), {
            cwd: APP_ROOT,
            env: childEnv,
            stdio: 'inherit',
          }),
        ]
      : [
          spawn(options.firebaseBin, firebaseArgs(options, hasExport), {
            cwd: options.workDir,
            env: childEnv,
            stdio: 'inherit',
          }),
        ]
  let stopping = false
  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal)
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stopAll(signal))
  const exits = children.map(
    (child) =>
      new Promise<number>((resolveExit) => {
        child.once('error', (error) => {
          console.error(`emulators: could not start ${child.spawnfile}: ${error.message}`)
          resolveExit(1)
        })
        child.once('exit', (code, signal) => resolveExit(code ?? (signal ? 1 : 0)))
      }),
  )
  // The first emulator to exit (crash or signal) takes the others down with it.
  const first = await Promise.race(exits)
  const unexpected = !stopping
  stopAll('SIGTERM')
  const codes = await Promise.all(exits)
  if (unexpected) {
    console.error('emulators: an emulator stopped on its own; stopping the rest')
    return first === 0 ? 1 : first
  }
  return codes.find((code) => code !== 0) ?? 0
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { mode: { type: 'string', default: 'official' } } })
  try {
    process.exitCode = await run(readOptions(process.env, values.mode))
  } catch (error) {
    console.error(`emulators: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  }
}
