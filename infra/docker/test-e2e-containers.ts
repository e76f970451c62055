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
//   node infra/docker/test-e2e-containers.ts [--keep-images] [Playwright's arguments, e.g. --project=desktop]
//   E2E_CANARY_FAIL=1 adds a deliberately broken journey (tests/e2e/canary.spec.ts).
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

const E2E_FILE = 'infra/docker/e2e.compose.yml'
// Runs side by side need prefixes of their own: a run first removes what earlier runs of its prefix left.
const PREFIX = process.env.BOSTED_E2E_PREFIX || 'bosted-e2e-'
// The host folder for the reports (emptied first); runs side by side name folders of their own.
const RESULTS = resolve(ROOT, process.env.BOSTED_E2E_RESULTS || 'test-results/e2e-containers')
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
  if (result.code !== 0) {
    console.error(result.stdout.split('\n').slice(-40).join('\n'), result.stderr.split('\n').slice(-20).join('\n'))
    throw new Error(`podman build of the runner (e2e) failed${result.timedOut ? ' (timed out)' : ''}`)
  }
  log(`built ${image} (the runner) in ${seconds(since)}`)
  return image
}
type RunResult = { code: number; stdout: string; stderr: string; timedOut: boolean }

/** Each service's whole log, as `<service>.log` in the results folder (stack logs name no person). */
async function saveServiceLogs(stack: InstanceType<typeof PodmanCompose>): Promise<void> {
  const folder = join(RESULTS, 'service-logs')
  mkdirSync(folder, { recursive: true })
  for (const service of ['emulators', 'api', 'seed', 'web']) {
    const text = await stack.serviceLogs(service).catch((error) => `no log: ${String(error)}`)
    writeFileSync(join(folder, `${service}.log`), text)
  }
  log(`service logs: ${folder}`)
  // What the api said of its dependencies, at the end of the output where CI's tail shows it.
  const api = readFileSync(join(folder, 'api.log'), 'utf8').split('\n')
  const said = api.filter((line) => /unavailable|failed|error/i.test(line)).slice(-15)
  if (said.length > 0) complaints = `the api's last complaints:\n${said.join('\n')}`
}
/** Printed after the report, so that the end of the output names the backend's side of a failure. */
let complaints = ''

function report(suiteCode: number | undefined): void {
  const file = join(RESULTS, 'results.json')
  if (!existsSync(file)) {
    log(`no results.json in ${RESULTS} (the suite did not get to report; exit ${suiteCode ?? '-'})`)
    return
  }
  const { counts, failed } = summarize(JSON.parse(readFileSync(file, 'utf8')))
  log(
    `suite: ${counts.passed} passed, ${counts.failed} failed, ${counts.flaky} flaky, ${counts.skipped} skipped (exit ${suiteCode})`,
  )
  for (const title of failed) log(`  FAILED  ${title}`)
  log(
    `report: ${join(RESULTS, 'html/index.html')} (traces and screenshots of failures in ${join(RESULTS, 'artifacts')})`,
  )
}

async function main(argv: string[]): Promise<number> {
  const keepImages = argv.includes('--keep-images') || process.env.KEEP_IMAGES === '1'
  const target = argv.find((arg) => arg.startsWith('--target='))?.slice('--target='.length) || 'compose'
  if (target !== 'compose') {
    console.error(`e2e-containers: TARGET=${target}: only the Compose stack (TARGET=compose) is run so far`)
    return 2
  }
  const playwrightArgs = argv.filter((arg) => !OWN_FLAGS.has(arg) && !arg.startsWith('--target='))
  const started = Date.now()
  const timings: Timing[] = []
  let failure: unknown
  const phase = async <T>(name: string, action: () => Promise<T>, { always = false } = {}): Promise<T> => {
    if (failure && !always) throw failure
    const since = Date.now()
    log(`--- ${name} ---`)
    try {
      return await action()
    } finally {
      timings.push([name, Date.now() - since])
      log(`${name}: ${seconds(since)}`)
    }
  }
  const interrupted = (signal: string) => {
    failure ??= new Error(`interrupted by ${signal}`)
    log(`${signal}: cleaning up, then exiting`)
  }
  process.once('SIGINT', interrupted)
  process.once('SIGTERM', interrupted)

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
      suite = await phase('suite (Playwright in the runner container)', () => compose(suiteCommand))
    } catch (error) {
      failure ??= error
    } finally {
      if (failure || suite?.code !== 0) await compose(['logs', '--no-color', '--tail=100'], 60_000)
      await phase(
        'cleanup',
        () =>
          must(
            ['--profile', 'e2e', 'down', '--volumes', '--remove-orphans', ...(keepImages ? [] : ['--rmi', 'local'])],
            5 * 60_000,
          ),
        { always: true },
      ).catch((error) => {
        failure ??= error
      })
    }
  } else {
    type Podman = { env: Record<string, string>; stop: () => Promise<void> }
    let podman: Podman | undefined
    let stack: InstanceType<typeof PodmanCompose> | undefined
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
      images = await phase('image builds (the stack and the runner)', async () => {
        const [built, runner] = await Promise.allSettled([current.build(), buildRunner(current.imageOf('e2e'), env)])
        if (built.status === 'rejected') throw built.reason
        if (runner.status === 'rejected') throw runner.reason
        return [...built.value, runner.value]
      })
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
      // The suite needs no healthcheck running meanwhile: the ticker's CPU goes to the browser.
      await current.stopTicker()
      suite = await phase(
        'suite (Playwright in the runner container)',
        () => run('docker-compose', suiteCommand, { env: current.env }) as Promise<RunResult>,
      )
    } catch (error) {
      failure ??= error
    } finally {
      if (stack) {
        await stack.stopTicker()
        if (failure) await stack.logs(100).catch(() => {})
        // A failed journey's cause is often in the backend: every service's log goes beside the report.
        if (failure || suite?.code !== 0) await saveServiceLogs(stack)
        const current = stack
        await phase(
          'cleanup',
          async () => {
            const built = images.length
              ? images
              : ['emulators', 'api', 'seed', 'web', 'e2e'].map((name) => current.imageOf(name))
            await current.removeEverything({ images: built, keepImages })
          },
          { always: true },
        ).catch((error) => {
          failure ??= error
        })
      }
      await podman?.stop()
    }
  }

  console.log('\ne2e-containers: timings')
  for (const [name, ms] of timings) console.log(`  ${name.padEnd(48)} ${(ms / 1000).toFixed(1)} s`)
  console.log(`  ${'total'.padEnd(48)} ${seconds(started)}`)
  report(suite?.code)
  if (complaints) log(complaints)
  if (failure) {
    console.error(`e2e-containers: FAILED: ${failure instanceof Error ? failure.message : String(failure)}`)
    return suite?.code || 1
  }
  return suite?.code ?? 1
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
