import { spawn } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { ACCESS_CLASSIFIER_MODULE, DEMO_PASSWORD, PERSON_OBJECTS_ROOT, TOP_LEVEL_COLLECTIONS } from '@bosted/domain'
import { REPO_ROOT, type StackEnv } from './env.ts'
import { assertPortsFree } from './ports.ts'
import type { RestartPolicy, RunningService, Supervision } from './process.ts'
import { identify, reclaimPreviousRun, removeRunFile, writeRunFile } from './run-file.ts'
import { startAuthEmulator } from './services/auth-emulator.ts'
import { startNodeService } from './services/node-services.ts'
import { startWebServer, WEB_DIST, type WebConfig } from './services/web.ts'
import { buildWebIfChanged } from './services/web-build.ts'

/**
 * Where emulator-lite's admin listener binds natively: always loopback. The api, the seed and the
 * tools run on the same machine; a pilot that serves other machines (STACK_HOST=0.0.0.0) must never
 * hand the owner's listener to them (docs/decisions/0011-privilege-and-one-http-core.md).
 */
export const ADMIN_HOST = '127.0.0.1'

/** Which parts of the system exist in this checkout; the launcher starts what is there. */
export const PARTS = {
  emulatorLite: join(REPO_ROOT, 'infra/emulator-lite/src/cli.ts'),
  api: join(REPO_ROOT, 'api/src/index.ts'),
  seed: join(REPO_ROOT, 'seed/src/seed.ts'),
  web: join(REPO_ROOT, 'web/index.html'),
}
const exists = (part: keyof typeof PARTS) => existsSync(PARTS[part])

export type StackOptions = {
  env: StackEnv
  /** Keep data in DATA_DIR across restarts (make start) or throw it away (tests). */
  persist: boolean
  /** Build web/dist before serving it when its sources or the lockfile changed; `false` when the caller already built it. */
  build: boolean
  /** Serve web/dist (start) or leave the web to Vite's dev server (dev). */
  serveWeb: boolean
  seed: boolean
  /** Start the api process (integration tests call the api in-process instead). */
  api?: boolean
  echo?: boolean
  log?: (line: string) => void
  /** Restart a crashed service with backoff (default), or leave it down (`false`). */
  restart?: RestartPolicy | false
  /** The launcher's lines about restarts and log trouble; stderr by default. */
  report?: (line: string) => void
}

export type Stack = {
  urls: {
    app: string | null
    api: string | null
    auth: string
    firestore: string | null
    storage: string | null
    /** emulator-lite's privileged listener (loopback; servers and tools only). */
    admin: string | null
  }
  services: RunningService[]
  webServerKind: string | null
  stop(): Promise<void>
}

export function webConfigFor(env: StackEnv): WebConfig {
  const publicHost = env.PUBLIC_HOST ?? env.STACK_HOST
  return {
    firebase: {
      apiKey: 'demo-api-key',
      authDomain: `${env.FIREBASE_PROJECT_ID}.firebaseapp.com`,
      projectId: env.FIREBASE_PROJECT_ID,
      appId: 'demo-app',
      storageBucket: env.FIREBASE_STORAGE_BUCKET,
    },
    emulators: {
      auth: `http://${publicHost}:${env.AUTH_PORT}`,
      firestore: exists('emulatorLite') ? `${publicHost}:${env.FIRESTORE_PORT}` : null,
      storage: exists('emulatorLite') ? `${publicHost}:${env.STORAGE_PORT}` : null,
    },
  }
}

/**
 * The environment every privileged Firebase client of ours (api, seed, tests with firebase-admin)
 * needs: emulator-lite's admin listener, where firebase-admin's `Bearer owner` is believed (the
 * browser-facing ports refuse it). Browsers get the public ports from webConfigFor. With the
 * official Auth emulator (AUTH_EMULATOR=official), Auth stays on its own port.
 */
export function emulatorEnv(env: StackEnv): NodeJS.ProcessEnv {
  const host = env.STACK_HOST
  const admin = `${ADMIN_HOST}:${env.EMULATOR_ADMIN_PORT}`
  const liteAuth = env.AUTH_EMULATOR === 'lite' && exists('emulatorLite')
  return {
    FIREBASE_PROJECT_ID: env.FIREBASE_PROJECT_ID,
    GCLOUD_PROJECT: env.FIREBASE_PROJECT_ID,
    FIREBASE_STORAGE_BUCKET: env.FIREBASE_STORAGE_BUCKET,
    FIREBASE_AUTH_EMULATOR_HOST: liteAuth ? admin : `${host}:${env.AUTH_PORT}`,
    FIRESTORE_EMULATOR_HOST: admin,
    FIREBASE_STORAGE_EMULATOR_HOST: admin,
    // The seed writes download URLs for browsers: those name the public Storage port.
    STORAGE_PUBLIC_HOST: `${env.PUBLIC_HOST ?? host}:${env.STORAGE_PORT}`,
    // emulator-lite's Auth trusts custom tokens signed with its service account (the api's refresh),
    // and signs its ID tokens; the official Auth emulator signs nothing, so the api takes unsigned ones.
    ...(env.AUTH_EMULATOR === 'lite'
      ? { EMULATOR_SERVICE_ACCOUNT_FILE: join(emulatorLiteDir(env), 'service-account.json') }
      : { ACCEPT_UNSIGNED_TOKENS: 'true' }),
  }
}

/** emulator-lite's data directory, and where its service-account.json lives also when it runs in memory. */
const emulatorLiteDir = (env: StackEnv) => join(env.DATA_DIR, 'emulator-lite')

/**
 * Starts the native stack: Auth emulator and emulator-lite, then the api, the seed (when the data
 * is empty) and the web server. Any failure stops what was already started.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const { env } = options
  const log = options.log ?? console.log
  const serveWeb = options.serveWeb && exists('web')
  const runApi = (options.api ?? true) && exists('api')
  const liteAuth = env.AUTH_EMULATOR === 'lite' && exists('emulatorLite')
  const ports = [
    { port: env.AUTH_PORT, variable: 'AUTH_PORT' },
    ...(liteAuth
      ? []
      : [
          { port: env.EMULATOR_HUB_PORT, variable: 'EMULATOR_HUB_PORT' },
          { port: env.EMULATOR_LOGGING_PORT, variable: 'EMULATOR_LOGGING_PORT' },
        ]),
    ...(exists('emulatorLite')
      ? [
          { port: env.FIRESTORE_PORT, variable: 'FIRESTORE_PORT' },
          { port: env.STORAGE_PORT, variable: 'STORAGE_PORT' },
          { port: env.EMULATOR_ADMIN_PORT, variable: 'EMULATOR_ADMIN_PORT' },
        ]
      : []),
    ...(runApi ? [{ port: env.API_PORT, variable: 'API_PORT' }] : []),
    ...(serveWeb ? [{ port: env.APP_PORT, variable: 'APP_PORT' }] : []),
  ]
  const runDir = join(env.DATA_DIR, 'run', String(env.APP_PORT))
  mkdirSync(runDir, { recursive: true })
  // A previous run whose launcher died left its services holding our ports: stop them first.
  await reclaimPreviousRun(runDir, log)
  await assertPortsFree(ports, env.STACK_HOST)

  if (serveWeb && (options.build || !existsSync(join(WEB_DIST, 'index.html')))) buildWebIfChanged(log)

  const services: RunningService[] = []
  // Every launch (first start, restart) records the pids, so a launcher that dies leaves a trail.
  const launched = new Map<string, number>()
  const recordProcesses = () =>
    writeRunFile(runDir, {
      launcher: identify(process.pid),
      services: [...launched].map(([name, pid]) => ({ name, ...identify(pid) })),
    })
  const supervisionOf = (name: string): Supervision => ({
    restart: options.restart,
    report: options.report,
    onLaunch: (child) => {
      if (child.pid === undefined) return
      launched.set(name, child.pid)
      recordProcesses()
    },
  })
  const stop = async () => {
    for (const service of [...services].reverse()) await service.stop()
    services.length = 0
    removeRunFile(runDir)
  }
  const firebaseEnv = emulatorEnv(env)
  const host = env.STACK_HOST
  let webServerKind: string | null = null
  try {
    const started = Date.now()
    const officialAuthDir = join(env.DATA_DIR, 'auth')
    await Promise.all([
      liteAuth
        ? Promise.resolve(null)
        : startAuthEmulator({
            host,
            port: env.AUTH_PORT,
            hubPort: env.EMULATOR_HUB_PORT,
            loggingPort: env.EMULATOR_LOGGING_PORT,
            projectId: env.FIREBASE_PROJECT_ID,
            workDir: officialAuthDir,
            persist: options.persist,
            echo: options.echo,
            supervision: supervisionOf('auth'),
          }).then(track(services)),
      exists('emulatorLite')
        ? startNodeService({
            name: 'emulator-lite',
            entry: 'infra/emulator-lite/src/cli.ts',
            args: [
              '--host',
              host,
              '--firestore-port',
              String(env.FIRESTORE_PORT),
              '--storage-port',
              String(env.STORAGE_PORT),
              // With the official Auth emulator, emulator-lite's own Auth moves out of the way to a free port.
              '--auth-port',
              liteAuth ? String(env.AUTH_PORT) : '0',
              // The privileged listener for the api and the seed: loopback, whatever STACK_HOST says.
              '--admin-port',
              String(env.EMULATOR_ADMIN_PORT),
              '--admin-host',
              ADMIN_HOST,
              '--project',
              env.FIREBASE_PROJECT_ID,
              // The repo's security rules, the same files Compose loads and production deploys.
              '--firestore-rules',
              join(REPO_ROOT, 'firestore.rules'),
              '--storage-rules',
              join(REPO_ROOT, 'storage.rules'),
              // A person's picture is read with the reader's identity (getBlob), so the access log names
              // them; its download URL alone opens nothing (issue 27 point 6).
              '--token-downloads-need-rules',
              PERSON_OBJECTS_ROOT,
              // What a path means for the Adgangslog: the domain says which documents are a person's.
              '--access-classifier',
              ACCESS_CLASSIFIER_MODULE,
              ...(options.persist
                ? ['--data', emulatorLiteDir(env)]
                : ['--in-memory', '--service-account-dir', emulatorLiteDir(env)]),
              // Accounts a previous run of the official emulator exported move over on the first start.
              ...(options.persist && liteAuth ? ['--import-auth', join(officialAuthDir, 'data')] : []),
              // The official Auth emulator signs nothing: only then does emulator-lite believe unsigned tokens.
              ...(liteAuth ? [] : ['--accept-unsigned-tokens']),
              // Password-reset links (mailed only with PILOT_SMTP_HOST) open the app's reset page (ADR 0023).
              '--password-reset-url',
              process.env.PASSWORD_RESET_URL ??
                `http://${env.PUBLIC_HOST ?? env.STACK_HOST}:${env.APP_PORT}/reset-password`,
            ],
            env: {},
            // Auth listens last, so once it answers every port does.
            healthUrl: liteAuth ? `http://${host}:${env.AUTH_PORT}/` : `http://${host}:${env.FIRESTORE_PORT}/health`,
            logDir: runDir,
            echo: options.echo,
            supervision: supervisionOf('emulator-lite'),
          }).then(track(services))
        : Promise.resolve(null),
    ])
    log(
      `emulators ready in ${Date.now() - started} ms (${liteAuth ? 'Auth in emulator-lite, tokens=signed' : 'official Auth emulator, tokens=unsigned-accepted'})`,
    )

    // The seed only needs the emulators: it runs while the api and the web server start. A warm start
    // skips it when the top-level collections it checks are there (starting it costs ~2 s of tsx).
    const wantSeed = options.seed && exists('seed') && exists('emulatorLite')
    const seeding =
      wantSeed && (await projectHasData(ADMIN_HOST, env.EMULATOR_ADMIN_PORT, env.FIREBASE_PROJECT_ID))
        ? Promise.resolve({
            output: `seed: project ${env.FIREBASE_PROJECT_ID} already has data; nothing to do (make seed ARGS=--reset reseeds it)`,
            ms: 0,
          })
        : wantSeed
          ? runSeed({ ...process.env, ...firebaseEnv })
          : null
    const servicesStarted = (async () => {
      if (runApi) {
        await startNodeService({
          name: 'api',
          entry: 'api/src/index.ts',
          env: { ...firebaseEnv, API_HOST: host, API_PORT: String(env.API_PORT), COOKIE_SECURE: 'false' },
          healthUrl: `http://${host}:${env.API_PORT}/api/health`,
          // On a full disk the api answers 503 degraded: up, and saying so; a restart would not help.
          readyWhenDegraded: true,
          logDir: runDir,
          echo: options.echo,
          supervision: supervisionOf('api'),
        }).then(track(services))
        log('api ready')
      }

      if (serveWeb) {
        const web = await startWebServer({
          host,
          port: env.APP_PORT,
          api: { host, port: env.API_PORT },
          runDir,
          config: webConfigFor(env),
          server: env.WEB_SERVER,
          echo: options.echo,
          supervision: supervisionOf('web'),
        })
        services.push(web)
        webServerKind = web.kind
        log(`web ready (${web.kind})`)
      }
    })()
    // Both settle before either failure is thrown, so no seed process outlives a failed start.
    const [servicesOutcome, seedOutcome] = await Promise.allSettled([servicesStarted, seeding])
    if (servicesOutcome.status === 'rejected') throw servicesOutcome.reason
    if (seedOutcome.status === 'rejected') throw seedOutcome.reason
    if (seedOutcome.value) {
      for (const line of seedOutcome.value.output.split('\n')) if (line.trim()) log(line)
      log(`seed done in ${seedOutcome.value.ms} ms`)
    }
  } catch (error) {
    await stop()
    throw error
  }
  return {
    urls: {
      app: serveWeb ? `http://${host}:${env.APP_PORT}` : null,
      api: runApi ? `http://${host}:${env.API_PORT}/api` : null,
      auth: `http://${host}:${env.AUTH_PORT}`,
      firestore: exists('emulatorLite') ? `http://${host}:${env.FIRESTORE_PORT}` : null,
      storage: exists('emulatorLite') ? `http://${host}:${env.STORAGE_PORT}` : null,
      admin: exists('emulatorLite') ? `http://${ADMIN_HOST}:${env.EMULATOR_ADMIN_PORT}` : null,
    },
    services,
    webServerKind,
    stop,
  }
}

/** The seed's own `--if-empty` test (a document in locations, users or persons), asked of emulator-lite directly. */
async function projectHasData(host: string, port: number, projectId: string): Promise<boolean> {
  try {
    const response = await fetch(
      `http://${host}:${port}/v1/projects/${projectId}/databases/(default)/documents:listCollectionIds`,
      // listCollectionIds is for server SDKs: the owner credential on the admin listener.
      { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer owner' }, body: '{}' },
    )
    const body = (await response.json()) as { collectionIds?: string[] }
    return TOP_LEVEL_COLLECTIONS.some((id) => body.collectionIds?.includes(id))
  } catch {
    return false
  }
}

/** `seed --if-empty` in a child process; rejects with its output when it fails. */
function runSeed(env: NodeJS.ProcessEnv): Promise<{ output: string; ms: number }> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', PARTS.seed, '--if-empty'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code === 0) resolve({ output: stdout, ms: Date.now() - started })
      else reject(new Error(`seed failed:\n${stdout}\n${stderr}`))
    })
  })
}

function track(services: RunningService[]) {
  return (service: RunningService) => {
    services.push(service)
    return service
  }
}

export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.dk', role: 'admin (alle lokationer)' },
  { email: 'superbruger@demo.dk', role: 'superbruger (to lokationer)' },
  { email: 'medarbejder@demo.dk', role: 'medarbejder (én lokation)' },
  { email: 'borger01@demo.dk …', role: 'borgere' },
].map((account) => ({ ...account, password: DEMO_PASSWORD }))
