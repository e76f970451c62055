// `make test-e2e-containers`: QA's whole end-to-end suite (tests/e2e, Playwright, the desktop, tablet
// and phone projects) run by a container against the Compose stack (issue 37):
//   1. the engine: Docker Engine with Compose v2 when it answers, else podman (installed and configured
//      by infra/docker/podman-setup.sh, its Docker API on a socket, docker-compose 1.29 over it);
//   2. on podman, the base images built locally when missing (infra/docker/local-bases.sh);
//   3. the stack's images and the runner's (infra/docker/e2e.Dockerfile: Debian's chromium, Playwright
//      from npm, no browser download), from docker-compose.yml + docker-compose.lite.yml +
//      infra/docker/e2e.compose.yml;
//   4. the stack up until healthy, on free published ports (a native stack is never disturbed);
//   5. the suite: `run --rm --no-deps e2e` on the Compose network; its exit code is this script's;
//   6. everything removed (images too, unless --keep-images; the layer cache stays).
// The HTML report, results.json and the traces and screenshots of failures land in
// test-results/e2e-containers/. Each phase's time is printed, and the total.
//
// --target=pilot (make test-e2e-containers TARGET=pilot): the same suite through a pilot's one HTTPS
// origin (docker-compose.pilot.yml; podman here, as make test-pilot): a pilot of its own (project
// prefix bosted-pilot-e2e-, a free PILOT_PORT on 127.0.0.1, a generated self-signed certificate), no
// demo data of its own; the suite's setup makes the first admin with the pilot's own tool
// (seed/src/pilot-admin.ts in the ops container, what make pilot-admin runs), checks it signs in
// through the origin, then fills the pilot with the demo fixture through the admin listener
// (emulators:9098 on the Compose network, never at the edge; seed.ts --allow-pilot). The runner joins
// the pilot's network (infra/docker/e2e-pilot.compose.yml) and trusts exactly the pilot's key.
// The journeys a pilot cannot run are skipped by name (tests/e2e/target-skips.ts, printed first).
// Reports in test-results/e2e-containers-pilot/.
//
//   node infra/docker/test-e2e-containers.ts [--target=pilot] [--keep-images] [Playwright's arguments, e.g. --project=desktop]
//   E2E_CANARY_FAIL=1 adds a deliberately broken journey (tests/e2e/canary.spec.ts).
import { spawnSync } from 'node:child_process'
import { createHash, randomBytes, X509Certificate } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  baseImages,
  chooseEngine,
  freePorts,
  LITE_FILES,
  log,
  PodmanCompose,
  ROOT,
  removeLeftovers,
  run,
  seconds,
  startPodman,
} from './compose.ts'
import { summarize } from './e2e-report.ts'
import { type Pilot, pilotEngine, pilotEnvironment, stageCertificate } from './pilot.ts'

const E2E_FILE = 'infra/docker/e2e.compose.yml'
// Runs side by side need prefixes of their own: a run first removes what earlier runs of its prefix left.
const PREFIX = process.env.BOSTED_E2E_PREFIX || 'bosted-e2e-'
// The host folder for the reports (emptied first); runs side by side name folders of their own.
const RESULTS = resolve(ROOT, process.env.BOSTED_E2E_RESULTS || 'test-results/e2e-containers')
const PILOT_E2E_FILE = 'infra/docker/e2e-pilot.compose.yml'
const PILOT_PREFIX = process.env.BOSTED_E2E_PILOT_PREFIX || 'bosted-pilot-e2e-'
const PILOT_RESULTS = resolve(ROOT, process.env.BOSTED_E2E_RESULTS || 'test-results/e2e-containers-pilot')
/** The pilot's first admin, made by the suite's setup (a throwaway pilot: the password is never printed). */
const PILOT_ADMIN = 'e2e-admin@kommune.dk'
const OWN_FLAGS = new Set(['--keep-images'])

type Timing = [name: string, ms: number]

/**
 * The runner's image on podman, under the name docker-compose 1.29 looks for: its own ignore file
 * (BuildKit reads it beside the Dockerfile; podman is told), the host's npm cache mounted for npm ci.
 */
async function buildRunner(image: string, env: Record<string, string | undefined>): Promise<string> {
  const since = Date.now()
  const npmCache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim()
  const command = ['build', '--format', 'docker', '--layers', '-t', image, '-f', 'infra/docker/e2e.Dockerfile']
  command.push('--ignorefile', 'infra/docker/e2e.Dockerfile.dockerignore')
  command.push('--build-arg', `NODE_IMAGE=${env.NODE_IMAGE ?? 'node:24-bookworm-slim'}`)
  if (npmCache && existsSync(npmCache)) command.push('--volume', `${npmCache}:/root/.npm`)
  command.push('.')
  let result = (await run('podman', command, { capture: true, timeoutMs: 20 * 60_000 })) as RunResult
  if (result.code !== 0 && !result.timedOut) {
    log(`podman build of e2e failed (exit ${result.code}); trying once more`)
    result = (await run('podman', command, { capture: true, timeoutMs: 20 * 60_000 })) as RunResult
  }
  if (result.code !== 0 || result.timedOut) {
    console.error(result.stdout.split('\n').slice(-40).join('\n'), result.stderr.split('\n').slice(-20).join('\n'))
    throw new Error(`podman build of the runner (e2e) failed${result.timedOut ? ' (timed out)' : ''}`)
  }
  log(`built ${image} (the runner) in ${seconds(since)}`)
  return image
}
type RunResult = { code: number; stdout: string; stderr: string; timedOut: boolean }

/**
 * One demo account signed in as a browser does it (Auth's password sign-in on the published Auth
 * port, then the api's session through nginx) before the suite starts. A freshly started api has
 * been seen to answer 503 to its first sign-ins for up to a minute after it reports healthy, in
 * containers only (cause not yet found; the api now logs which dependency failed). The suite starts
 * once a sign-in works; every refusal before that is printed with the api's answer, and the wait.
 */
async function firstSignIn(env: Record<string, string | undefined>): Promise<void> {
  const auth = `http://127.0.0.1:${env.AUTH_PORT}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=e2e`
  const app = `http://127.0.0.1:${env.APP_PORT}`
  const since = Date.now()
  let last = ''
  for (let attempt = 1; Date.now() - since < 90_000; attempt++) {
    try {
      const signIn = await fetch(auth, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'medarbejder@demo.dk', password: 'demo1234', returnSecureToken: true }),
        signal: AbortSignal.timeout(15_000),
      })
      const { idToken } = (await signIn.json()) as { idToken?: string }
      if (!idToken) throw new Error(`Auth answered ${signIn.status} without an ID token`)
      const login = await fetch(`${app}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app },
        body: JSON.stringify({ idToken }),
        signal: AbortSignal.timeout(15_000),
      })
      const body = (await login.text()).slice(0, 200)
      if (login.status === 200) {
        log(`a demo account signed in through the api after ${seconds(since)} (attempt ${attempt})`)
        return
      }
      last = `/api/auth/login answered ${login.status} ${body}`
    } catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
    log(`first sign-in, attempt ${attempt}: ${last}; again in 3 s`)
    await new Promise((wait) => setTimeout(wait, 3_000))
  }
  throw new Error(`no sign-in through the api within 90 s: ${last}`)
}

/** Each service's whole log, as `<service>.log` in the results folder (stack logs name no person). */
async function saveServiceLogs(
  stack: PodmanCompose,
  results = RESULTS,
  services = ['emulators', 'api', 'seed', 'web'],
): Promise<void> {
  const folder = join(results, 'service-logs')
  mkdirSync(folder, { recursive: true })
  for (const service of services) {
    const text = await stack.serviceLogs(service).catch((error) => `no log: ${String(error)}`)
    writeFileSync(join(folder, `${service}.log`), text)
  }
  log(`service logs: ${folder}`)
  complaints = await stack.complaints()
}
/** Printed after the report, so that the end of the output names the backend's side of a failure. */
let complaints = ''

function report(suiteCode: number | undefined, results = RESULTS): void {
  const file = join(results, 'results.json')
  if (!existsSync(file)) {
    log(`no results.json in ${results} (the suite did not get to report; exit ${suiteCode ?? '-'})`)
    return
  }
  const { counts, failed } = summarize(JSON.parse(readFileSync(file, 'utf8')))
  log(
    `suite: ${counts.passed} passed, ${counts.failed} failed, ${counts.flaky} flaky, ${counts.skipped} skipped (exit ${suiteCode})`,
  )
  for (const title of failed) log(`  FAILED  ${title}`)
  log(
    `report: ${join(results, 'html/index.html')} (traces and screenshots of failures in ${join(results, 'artifacts')})`,
  )
}

/** The stack's images (the Compose stack's, or the pilot's) in their build lanes and, beside them, the runner's. */
async function buildWithRunner(stack: PodmanCompose, env: Record<string, string | undefined>): Promise<string[]> {
  const [built, runner] = await Promise.allSettled([stack.build(), buildRunner(stack.imageOf('e2e'), env)])
  if (built.status === 'rejected') throw built.reason
  if (runner.status === 'rejected') throw runner.reason
  return [...built.value, runner.value]
}

/** `docker compose … down` of a run: volumes and orphans, and the images it built unless kept. */
const dockerDown = (keepImages: boolean) => [
  '--profile',
  'e2e',
  'down',
  '--volumes',
  '--remove-orphans',
  ...(keepImages ? [] : ['--rmi', 'local']),
]

type Teardown = {
  /** The images the run built (empty when the builds did not finish). */
  images: string[]
  /** Every service of the run: their images are removed when `images` is empty. */
  services: string[]
  /** The services whose whole logs go beside the report when something failed. */
  logged: string[]
  results: string
  keepImages: boolean
  suiteCode: number | undefined
}

/** After a run on podman: the backend's logs beside the report when something failed, then everything removed. */
async function podmanTeardown(phases: Phases, stack: PodmanCompose, teardown: Teardown): Promise<void> {
  await stack.stopTicker()
  if (phases.failure) await stack.logs(100).catch(() => {})
  // A failed journey's cause is often in the backend: every service's log goes beside the report.
  if (phases.failure || teardown.suiteCode !== 0) await saveServiceLogs(stack, teardown.results, teardown.logged)
  await phases
    .phase(
      'cleanup',
      async () => {
        const built = teardown.images.length ? teardown.images : teardown.services.map((name) => stack.imageOf(name))
        await stack.removeEverything({ images: built, keepImages: teardown.keepImages })
      },
      { always: true },
    )
    .catch((error) => phases.fail(error))
}

/** The timings, the suite's summary and the backend's complaints; the exit code is the suite's. */
function finish(phases: Phases, title: string, suite: RunResult | undefined, results: string, width = 64): number {
  phases.printTimings(title, width)
  report(suite?.code, results)
  if (complaints) log(complaints)
  if (!phases.failure) return suite?.code ?? 1
  console.error(
    `e2e-containers: FAILED: ${phases.failure instanceof Error ? phases.failure.message : String(phases.failure)}`,
  )
  return suite?.code || 1
}

/**
 * A run's phases: each timed and logged; after the first failure only phases marked `always`
 * (cleanup) run. SIGINT/SIGTERM count as a failure, so the run cleans up and then exits.
 */
class Phases {
  readonly #started = Date.now()
  readonly #timings: Timing[] = []
  failure: unknown

  constructor() {
    const interrupted = (signal: string) => {
      this.fail(new Error(`interrupted by ${signal}`))
      log(`${signal}: cleaning up, then exiting`)
    }
    process.once('SIGINT', interrupted)
    process.once('SIGTERM', interrupted)
  }

  /** The first failure is the run's. */
  fail(error: unknown): void {
    this.failure ??= error
  }

  phase = async <T>(name: string, action: () => Promise<T>, { always = false } = {}): Promise<T> => {
    if (this.failure && !always) throw this.failure
    const since = Date.now()
    log(`--- ${name} ---`)
    try {
      return await action()
    } finally {
      this.#timings.push([name, Date.now() - since])
      log(`${name}: ${seconds(since)}`)
    }
  }

  printTimings(title: string, width: number): void {
    console.log(`\n${title}: timings`)
    for (const [name, ms] of this.#timings) console.log(`  ${name.padEnd(width)} ${(ms / 1000).toFixed(1)} s`)
    console.log(`  ${'total'.padEnd(width)} ${seconds(this.#started)}`)
  }
}

async function main(argv: string[]): Promise<number> {
  const keepImages = argv.includes('--keep-images') || process.env.KEEP_IMAGES === '1'
  const target = argv.find((arg) => arg.startsWith('--target='))?.slice('--target='.length) || 'compose'
  if (target !== 'compose' && target !== 'pilot') {
    console.error(`e2e-containers: TARGET=${target}: the targets are compose (the default) and pilot`)
    return 2
  }
  const playwrightArgs = argv.filter((arg) => !OWN_FLAGS.has(arg) && !arg.startsWith('--target='))
  if (target === 'pilot') return runAgainstPilot(playwrightArgs, keepImages)
  const phases = new Phases()
  const phase = phases.phase

  rmSync(RESULTS, { recursive: true, force: true })
  mkdirSync(RESULTS, { recursive: true })
  const engine = chooseEngine()
  const project = `${PREFIX}${randomBytes(3).toString('hex')}`
  const ports = await freePorts()
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...ports,
    COMPOSE_FILE: `${LITE_FILES}:${E2E_FILE}`,
    COMPOSE_PROJECT_NAME: project,
    BIND_ADDRESS: '127.0.0.1',
    PUBLIC_HOST: 'localhost',
    E2E_TARGET: 'compose',
    E2E_USER: `${process.getuid?.() ?? 1000}:${process.getgid?.() ?? 1000}`,
    E2E_RESULTS_HOST_DIR: RESULTS,
  }
  log(`engine ${engine}, project ${project}, results in ${RESULTS}`)
  const suiteCommand = ['run', '--rm', '-T', '--no-deps', 'e2e', 'npx', 'playwright', 'test', ...playwrightArgs]
  let suite: RunResult | undefined

  if (engine === 'docker') {
    const compose = (args: string[], timeoutMs = 0) =>
      run('docker', ['compose', ...args], { env, timeoutMs }) as Promise<RunResult>
    const must = async (args: string[], timeoutMs = 0) => {
      const result = await compose(args, timeoutMs)
      if (result.code !== 0) throw new Error(`docker compose ${args.join(' ')} exited ${result.code}`)
    }
    try {
      await phase('image builds (the stack and the runner)', () => must(['--profile', 'e2e', 'build'], 40 * 60_000))
      await phase('stack up until healthy', () => must(['up', '--detach', '--wait'], 10 * 60_000))
      await phase('first sign-in through the api', () => firstSignIn(env))
      suite = await phase('suite (Playwright in the runner container)', () => compose(suiteCommand))
    } catch (error) {
      phases.fail(error)
    } finally {
      if (phases.failure || suite?.code !== 0) await compose(['logs', '--no-color', '--tail=100'], 60_000)
      await phase('cleanup', () => must(dockerDown(keepImages), 5 * 60_000), { always: true }).catch((error) => {
        phases.fail(error)
      })
    }
  } else {
    type Podman = { env: Record<string, string>; stop: () => Promise<void> }
    let podman: Podman | undefined
    let stack: PodmanCompose | undefined
    let images: string[] = []
    try {
      const started: Podman = await phase('podman setup', startPodman)
      podman = started
      await removeLeftovers(PREFIX)
      const bases = await phase('base images', () => baseImages())
      Object.assign(env, started.env, bases)
      // The Compose stack's own lanes (emulator-lite, whose better-sqlite3 compiles, beside the others);
      // the runner is not one of them.
      stack = new PodmanCompose(project, env, { lanes: [['emulators'], ['api', 'seed', 'web']] })
      const current = stack
      // The stack's images as `make test-containers` builds them (two lanes), and beside them the
      // runner's, whose build is mostly downloads (chromium from apt, npm ci).
      images = await phase('image builds (the stack and the runner)', () => buildWithRunner(current, env))
      await phase('stack up until healthy', async () => {
        try {
          await current.up()
        } catch (error) {
          // On a loaded machine a one-shot (the seed's 3 s reachability probe) can give up before
          // the emulators answer: once more, and it says so. A second failure is the run's.
          log(`up failed (${error instanceof Error ? error.message : String(error)}); once more`)
          await current.serviceLogs('seed').then((text: string) => console.log(text.split('\n').slice(-5).join('\n')))
          await current.up()
        }
      })
      await phase('first sign-in through the api', () => firstSignIn(env))
      // The suite needs no healthcheck running meanwhile: the ticker's CPU goes to the browser.
      await current.stopTicker()
      suite = await phase(
        'suite (Playwright in the runner container)',
        () => run('docker-compose', suiteCommand, { env: current.env }) as Promise<RunResult>,
      )
    } catch (error) {
      phases.fail(error)
    } finally {
      if (stack)
        await podmanTeardown(phases, stack, {
          images,
          services: ['emulators', 'api', 'seed', 'web', 'e2e'],
          logged: ['emulators', 'api', 'seed', 'web'],
          results: RESULTS,
          keepImages,
          suiteCode: suite?.code,
        })
      await podman?.stop()
    }
  }

  return finish(phases, 'e2e-containers', suite, RESULTS, 48)
}

/** One HTTPS request to the pilot's origin, trusting its certificate only. */
function originRequest(
  url: string,
  ca: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = httpsRequest(
      url,
      { method: 'POST', ca, headers: { ...headers, 'content-type': 'application/json' }, timeout: 20_000 },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () => done({ status: response.statusCode ?? 0, body: text }))
      },
    )
    req.once('timeout', () => req.destroy(new Error('timeout')))
    req.once('error', fail)
    req.end(JSON.stringify(body))
  })
}

/**
 * The suite through a pilot's one HTTPS origin (podman here; Docker through the same Pilot calls):
 * up from nothing, the first admin made and signed in through the origin, the demo fixture seeded
 * through the admin listener, the runner on the pilot's network, everything removed afterwards.
 */
async function runAgainstPilot(playwrightArgs: string[], keepImages: boolean): Promise<number> {
  const phases = new Phases()
  const phase = phases.phase

  rmSync(PILOT_RESULTS, { recursive: true, force: true })
  mkdirSync(PILOT_RESULTS, { recursive: true })
  const tlsDir = mkdtempSync(join(tmpdir(), 'bosted-pilot-e2e-tls-'))
  chmodSync(tlsDir, 0o755)
  const { APP_PORT: port } = await freePorts()
  const project = `${PILOT_PREFIX}${randomBytes(3).toString('hex')}`
  const env = pilotEnvironment({
    ...process.env,
    PILOT_PROJECT_NAME: project,
    PILOT_HOST: 'localhost',
    PILOT_PORT: port,
    PILOT_BIND: '127.0.0.1',
    PILOT_TLS_CERT: '',
    PILOT_TLS_KEY: '',
    PILOT_SMTP_HOST: '',
    E2E_USER: `${process.getuid?.() ?? 1000}:${process.getgid?.() ?? 1000}`,
    E2E_RESULTS_HOST_DIR: PILOT_RESULTS,
    E2E_TLS_HOST_DIR: tlsDir,
  })
  env.COMPOSE_FILE = `${env.COMPOSE_FILE}:${PILOT_E2E_FILE}`
  const base = `https://localhost:${port}`
  log(`target pilot: project ${project}, origin ${base}, results in ${PILOT_RESULTS}`)
  const suiteCommand = ['run', '--rm', '-T', '--no-deps', 'e2e', 'npx', 'playwright', 'test', ...playwrightArgs]
  let suite: RunResult | undefined
  let pilot: Pilot | undefined
  let images: string[] = []
  try {
    stageCertificate(env)
    const running: Pilot = await phase('engine setup', () => pilotEngine(env))
    pilot = running
    const { stack } = running
    if (stack) await removeLeftovers(PILOT_PREFIX)
    images = await phase('image builds (the pilot and the runner)', async () => {
      if (!stack) {
        const built = await running.compose(['--profile', 'e2e', 'build'], { timeoutMs: 40 * 60_000 })
        if (built.code !== 0) throw new Error('docker compose build failed')
        return []
      }
      Object.assign(stack.env, await baseImages(env))
      return buildWithRunner(stack, stack.env)
    })
    await phase('pilot up from nothing until healthy', async () => {
      if (!stack) {
        const up = await running.compose(['up', '--detach', '--wait'], { timeoutMs: 10 * 60_000 })
        if (up.code !== 0) throw new Error('docker compose up failed')
        return
      }
      await stack.up()
      await stack.stopTicker()
    })
    const runEnv = stack ? stack.env : env
    await phase('first admin, through the origin, and the demo fixture (admin listener)', async () => {
      const ca = (await running.exec('web', ['cat', '/tls/cert.pem'], { capture: true })).stdout
      const cert = new X509Certificate(ca)
      writeFileSync(join(tlsDir, 'cert.pem'), ca, { mode: 0o644 })
      runEnv.E2E_TLS_SPKI = createHash('sha256')
        .update(cert.publicKey.export({ type: 'spki', format: 'der' }))
        .digest('base64')
      log(
        `the pilot's generated certificate: SHA-256 fingerprint ${cert.fingerprint256}; the runner trusts that key only`,
      )
      const made = await running.exec(
        'ops',
        ['node', '--import', 'tsx', 'seed/src/pilot-admin.ts', '--email', PILOT_ADMIN, '--first-name', 'E2E'],
        { capture: true },
      )
      const password = /password \(shown once[^)]*\): (\S+)/.exec(made.stdout)?.[1]
      if (made.code !== 0 || !password) throw new Error(`pilot-admin failed: ${(made.stderr || made.stdout).trim()}`)
      log(`first admin ${PILOT_ADMIN} made by the pilot's own tool (seed/src/pilot-admin.ts, as make pilot-admin)`)
      const signIn = await originRequest(
        `${base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=${runEnv.FIREBASE_API_KEY || 'pilot-api-key'}`,
        ca,
        { email: PILOT_ADMIN, password, returnSecureToken: true },
      )
      if (signIn.status !== 200 || !JSON.parse(signIn.body).idToken)
        throw new Error(
          `the first admin could not sign in through the origin: ${signIn.status} ${signIn.body.slice(0, 200)}`,
        )
      log(`the first admin signs in through ${base} (Auth behind the edge)`)
      // And to the api (its session): on a busy machine the api can be healthy yet answer 503 for a
      // while right after a start (as make test-pilot's api calls allow); the suite starts once it serves.
      const idToken = JSON.parse(signIn.body).idToken as string
      let login = await originRequest(`${base}/api/auth/login`, ca, { idToken }, { origin: base })
      for (let attempt = 2; attempt <= 20 && login.status >= 500; attempt++) {
        log(`/api/auth/login answered ${login.status}; again in 3 s`)
        await new Promise((wait) => setTimeout(wait, 3000))
        login = await originRequest(`${base}/api/auth/login`, ca, { idToken }, { origin: base })
      }
      if (login.status !== 200)
        throw new Error(`the first admin's api sign-in: ${login.status} ${login.body.slice(0, 200)}`)
      log('the first admin signs in to the api through the origin (session cookie)')
      // The persons' pictures are downloaded from the one origin (Storage under /v0/b/), as the app's own uploads are.
      const seedCommand = [
        'env',
        `STORAGE_PUBLIC_ORIGIN=${base}`,
        'node',
        '--import',
        'tsx',
        'seed/src/seed.ts',
        '--allow-pilot',
      ]
      const seeded = await running.exec('ops', seedCommand, {
        capture: true,
        timeoutMs: 10 * 60_000,
      })
      if (seeded.code !== 0) throw new Error(`the demo fixture: ${(seeded.stderr || seeded.stdout).trim()}`)
      for (const line of seeded.stdout.trim().split('\n').slice(-3)) log(`  ${line}`)
    })
    suite = await phase(
      'suite (Playwright in the runner container, through the origin)',
      () =>
        (stack
          ? run('docker-compose', suiteCommand, { env: runEnv })
          : running.compose(suiteCommand)) as Promise<RunResult>,
    )
  } catch (error) {
    phases.fail(error)
  } finally {
    const current = pilot
    if (current?.stack)
      await podmanTeardown(phases, current.stack, {
        images,
        services: ['emulators', 'tls', 'migrate', 'ops', 'api', 'web', 'e2e'],
        logged: ['emulators', 'api', 'web', 'ops'],
        results: PILOT_RESULTS,
        keepImages,
        suiteCode: suite?.code,
      })
    else if (current)
      await phase('cleanup', () => current.compose(dockerDown(keepImages), { timeoutMs: 5 * 60_000 }), {
        always: true,
      }).catch((error) => {
        phases.fail(error)
      })
    await current?.close()
    rmSync(tlsDir, { recursive: true, force: true })
  }

  return finish(phases, 'e2e-containers (pilot)', suite, PILOT_RESULTS)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (error) => {
      console.error(`e2e-containers: ${error instanceof Error ? error.message : String(error)}`)
      process.exitCode = 1
    },
  )
}
