// The Compose stack on either engine: `make up`, `make down`, `make logs` and `make test-containers`.
//
//   node infra/docker/compose.ts up [--no-build]       build, start, wait until healthy, print the URL
//   node infra/docker/compose.ts down [-v]             stop and remove the containers (-v: and the data)
//   node infra/docker/compose.ts logs                  follow every service's log
//   node infra/docker/test-containers.ts [--keep-images]  QA's run from nothing (its own entry)
//
// Docker Engine with Compose v2 (`docker compose version` and `docker info` answer): plain
// `docker compose`, nothing else. Otherwise podman, as on the project's own machines (Debian, no
// container registry, no systemd): infra/docker/podman-setup.sh installs and configures it,
// infra/docker/local-bases.sh builds the base images locally, each image is built with `podman build`
// from the Compose file's own build sections (the npm cache of this machine mounted, so `npm ci` reads
// what the host's `npm ci` fetched), and docker-compose 1.29 drives the stack through podman's
// Docker API socket. Without systemd podman runs no healthcheck by itself: a ticker here runs
// `podman healthcheck run` for every container while Compose waits on `service_healthy`.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { freePort } from '@bosted/stack/ports'
import { parse } from 'yaml'
import { type ComposeModel, type ComposeService, parseEnvFile } from './check/compose.ts'

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..')
export const LITE_FILES = 'docker-compose.yml:docker-compose.lite.yml'
export const PUBLISHED_PORTS = {
  APP_PORT: 8000,
  AUTH_PORT: 9099,
  FIRESTORE_PORT: 8080,
  STORAGE_PORT: 9199,
  EMULATOR_UI_PORT: 4000,
  EMULATOR_HUB_PORT: 4400,
  EMULATOR_LOGGING_PORT: 4500,
  FIRESTORE_WS_PORT: 9150,
}
const LONG_RUNNING = ['emulators', 'api', 'web']
const ONE_SHOT = ['seed']
/** The order images are built in: the Node images share their first stage. */
const BUILD_ORDER = ['emulators', 'api', 'seed', 'web']

export const log = (message: string): void => console.log(`containers: ${message}`)
/** A log line worth showing after a failure (see PodmanCompose.complaints). */
const COMPLAINT = /unavailable|failed|error|nothing ran for|GET \/api\/health:/i

export type Env = Record<string, string | undefined>

/**
 * The environment Compose sees: .env (when there is one) under this process's own variables, and the
 * project name `bosted` unless one of them names another (the Compose files name none: docker-compose
 * 1.29 rejects a top-level `name:`).
 */
export function composeEnvironment(env: Env = process.env): Env {
  const file = join(ROOT, '.env')
  const dotenv = existsSync(file) ? parseEnvFile(readFileSync(file, 'utf8')).values : {}
  const merged: Env = { ...dotenv, ...env }
  merged.COMPOSE_PROJECT_NAME ||= 'bosted'
  return merged
}
export const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`

export type RunOptions = {
  env?: Env
  /** Capture stdout (and stderr unless `stderr: 'inherit'`) instead of inheriting them. */
  capture?: boolean
  timeoutMs?: number
  /** Without capture: drop stdout. */
  quiet?: boolean
  stderr?: 'inherit'
}
export type RunResult = { code: number; stdout: string; stderr: string; timedOut: boolean }

/** Runs a command to its end; resolves with its exit code and captured output (or inherits stdio). */
export function run(
  command: string,
  args: string[],
  { env = process.env, capture = false, timeoutMs = 0, quiet = false, stderr: errors }: RunOptions = {},
): Promise<RunResult> {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env,
      stdio: capture
        ? ['ignore', 'pipe', errors === 'inherit' ? 'inherit' : 'pipe']
        : ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
    })
    let timedOut = false
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true
            child.kill('SIGTERM')
            setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
          }, timeoutMs)
        : undefined
    child.once('error', (error) => {
      clearTimeout(timer)
      resolveRun({ code: 127, stdout, stderr: `${stderr}${error.message}`, timedOut })
    })
    child.once('close', (code) => {
      clearTimeout(timer)
      resolveRun({ code: code ?? 1, stdout, stderr, timedOut })
    })
  })
}

/** Like run, but throws (naming the command) unless it exits 0. */
export async function must(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const result = await run(command, args, options)
  if (result.code !== 0) {
    const why = result.timedOut ? `timed out after ${(options.timeoutMs ?? 0) / 1000} s` : `exited ${result.code}`
    const detail = options.capture
      ? `\n${(result.stderr || result.stdout).trim().split('\n').slice(-30).join('\n')}`
      : ''
    throw new Error(`${command} ${args.join(' ')} ${why}${detail}`)
  }
  return result
}

function succeeds(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 }).status === 0
}

export type Engine = 'docker' | 'podman'

/** 'docker' when a Docker engine with Compose v2 answers, else 'podman' (BOSTED_CONTAINER_ENGINE overrides). */
export function chooseEngine(env: Env = process.env): Engine {
  const wanted = env.BOSTED_CONTAINER_ENGINE
  if (wanted === 'docker' || wanted === 'podman') return wanted
  if (wanted) throw new Error(`BOSTED_CONTAINER_ENGINE must be docker or podman, got ${wanted}`)
  return succeeds('docker', ['compose', 'version']) && succeeds('docker', ['info']) ? 'docker' : 'podman'
}

export type PublishedPorts = Record<keyof typeof PUBLISHED_PORTS, string>

/** One free port on 127.0.0.1 for every published port, so a run never collides with a native stack. */
export async function freePorts(): Promise<PublishedPorts> {
  const ports: Partial<PublishedPorts> = {}
  // Below the ephemeral range and each once (@bosted/stack/ports): no outgoing connection takes one
  // while the images build.
  for (const name of Object.keys(PUBLISHED_PORTS) as (keyof typeof PUBLISHED_PORTS)[])
    ports[name] = String(await freePort())
  return ports as PublishedPorts
}

function pingSocket(socketPath: string): Promise<boolean> {
  return new Promise((resolvePing) => {
    const req = request({ socketPath, path: '/_ping', timeout: 2000 }, (response) => {
      response.resume()
      resolvePing(response.statusCode === 200)
    })
    req.once('error', () => resolvePing(false))
    req.once('timeout', () => {
      req.destroy()
      resolvePing(false)
    })
    req.end()
  })
}

export type Podman = { socket: string; env: { DOCKER_HOST: string }; stop(): Promise<void> }

/**
 * podman as a Docker engine for this process: configured (installed when missing), its API served on
 * a socket of this process's own, stopped by stop(). Containers outlive the service (conmon runs them).
 */
export async function startPodman(): Promise<Podman> {
  await must('bash', [join(ROOT, 'infra/docker/podman-setup.sh')], { timeoutMs: 10 * 60_000 })
  const dir =
    process.getuid?.() === 0 ? '/run/bosted-podman' : join(process.env.XDG_RUNTIME_DIR || '/tmp', 'bosted-podman')
  mkdirSync(dir, { recursive: true })
  const socket = join(dir, `podman-${process.pid}.sock`)
  rmSync(socket, { force: true })
  const service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let serviceErrors = ''
  service.stderr.on('data', (chunk) => {
    serviceErrors = `${serviceErrors}${chunk}`.slice(-4000)
  })
  // On a loaded machine (load average 30 on 2 cores) the service can take more than 30 s to answer.
  const deadline = Date.now() + 90_000
  while (!(existsSync(socket) && (await pingSocket(socket)))) {
    if (service.exitCode !== null || Date.now() > deadline) {
      service.kill('SIGKILL')
      throw new Error(`podman system service did not answer on ${socket}:\n${serviceErrors}`)
    }
    await sleep(200)
  }
  return {
    socket,
    env: { DOCKER_HOST: `unix://${socket}` },
    async stop() {
      if (service.exitCode === null) {
        service.kill('SIGTERM')
        await Promise.race([new Promise((done) => service.once('exit', done)), sleep(10_000)])
        if (service.exitCode === null) service.kill('SIGKILL')
      }
      rmSync(socket, { force: true })
    },
  }
}

/** The base-image build arguments: local stand-ins (built when missing) unless BOSTED_BASE_IMAGES=public. */
export async function baseImages(env: Env = process.env): Promise<Record<string, string>> {
  if (env.BOSTED_BASE_IMAGES === 'public') return {}
  const { stdout } = await must('bash', [join(ROOT, 'infra/docker/local-bases.sh'), '--print-env'], {
    capture: true,
    stderr: 'inherit',
    timeoutMs: 15 * 60_000,
  })
  return Object.fromEntries(
    stdout
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  )
}

/** A container of a Compose project, as podman inspects it. */
export type Container = {
  id: string
  name: string
  service: string | undefined
  status: string | undefined
  exitCode: number | undefined
  health: string
  ports: Record<string, { HostIp: string; HostPort: string }[] | null>
}
type Inspected = {
  Id: string
  Name: string
  Config?: { Labels?: Record<string, string> }
  State?: { Status?: string; ExitCode?: number; Health?: { Status?: string }; Healthcheck?: { Status?: string } }
  NetworkSettings?: { Ports?: Container['ports'] }
}

/**
 * Which services must be healthy, which must have exited 0, and the build lanes (default: the dev
 * stack's); `startedBy` names the command that starts the project, for messages.
 */
export type Services = { longRunning?: string[]; oneShot?: string[]; lanes?: string[][]; startedBy?: string }

/** A Compose project on podman through docker-compose 1.29 (v1 names: project_service_1). */
export class PodmanCompose {
  readonly project: string
  /** The environment Compose interpolates from. */
  env: Env
  ticker: { stop(): Promise<void> } | undefined
  readonly longRunning: string[]
  readonly oneShot: string[]
  readonly lanes: string[][] | undefined
  readonly startedBy: string | undefined

  constructor(project: string, env: Env, services: Services = {}) {
    this.project = project
    this.env = { ...env, COMPOSE_PROJECT_NAME: project, COMPOSE_DOCKER_CLI_BUILD: '0' }
    this.ticker = undefined
    this.longRunning = services.longRunning ?? LONG_RUNNING
    this.oneShot = services.oneShot ?? ONE_SHOT
    this.lanes = services.lanes
    this.startedBy = services.startedBy
  }

  compose(args: string[], options: RunOptions = {}): Promise<RunResult> {
    return must('docker-compose', args, { env: this.env, ...options })
  }

  /** The merged, interpolated configuration, as docker-compose 1.29 reads (and validates) it. */
  async config(): Promise<ComposeModel> {
    const { stdout } = await this.compose(['config'], { capture: true, timeoutMs: 60_000 })
    return parse(stdout) as ComposeModel
  }

  imageOf(service: string): string {
    return `${this.project}_${service}`
  }

  /**
   * Builds each service's image with `podman build`, exactly as its Compose build section says
   * (context, Dockerfile, target, args), under the name docker-compose 1.29 looks for. The host's npm
   * cache is mounted where `npm ci` runs (root, /root/.npm): layers stay free of it.
   */
  async build(): Promise<string[]> {
    const config = await this.config()
    const npmCache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim()
    type Build = NonNullable<ComposeService['build']>
    const services = Object.entries(config.services ?? {}).flatMap(([name, service]) =>
      service.build ? [[name, service.build] as [string, Build]] : [],
    )
    services.sort(([a], [b]) => BUILD_ORDER.indexOf(a) - BUILD_ORDER.indexOf(b))
    // Services with the same build section (the pilot's tls, migrate and ops) share one build: the
    // first one builds, the others tag its image.
    const sameBuild = new Map<string, { name: string; done: Promise<void> }>()
    const buildOne = async ([name, build]: [string, Build]) => {
      const key = JSON.stringify(build)
      const earlier = sameBuild.get(key)
      if (earlier) {
        await earlier.done
        await must('podman', ['tag', this.imageOf(earlier.name), this.imageOf(name)])
        log(`tagged ${this.imageOf(name)} (the same build as ${this.imageOf(earlier.name)})`)
        return
      }
      const done = buildImage(name, build)
      sameBuild.set(key, { name, done })
      await done
    }
    const buildImage = async (name: string, build: Build) => {
      const started = Date.now()
      const { context = '.', dockerfile, target, args = {} } = build
      const command = ['build', '--format', 'docker', '--layers', '-t', this.imageOf(name)]
      command.push('-f', resolve(context, dockerfile ?? 'Dockerfile'))
      if (target) command.push('--target', target)
      for (const [key, value] of Object.entries(args)) command.push('--build-arg', `${key}=${value ?? ''}`)
      if (npmCache && existsSync(npmCache)) command.push('--volume', `${npmCache}:/root/.npm`)
      command.push(context)
      let result = await run('podman', command, { capture: true, timeoutMs: 20 * 60_000 })
      if (result.code !== 0 && !result.timedOut) {
        // Once more: a registry that drops a connection mid-`npm ci` should not fail the run.
        log(`podman build of ${name} failed (exit ${result.code}); trying once more`)
        console.error(result.stdout.split('\n').slice(-15).join('\n'))
        result = await run('podman', command, { capture: true, timeoutMs: 20 * 60_000 })
      }
      // A build killed at its timeout may report exit 0: it failed all the same (no image).
      if (result.code !== 0 || result.timedOut) {
        console.error(result.stdout.split('\n').slice(-60).join('\n'), result.stderr.split('\n').slice(-20).join('\n'))
        throw new Error(`podman build of ${name} failed${result.timedOut ? ' (timed out)' : ''}`)
      }
      log(`built ${this.imageOf(name)} (${target ?? 'last stage'}) in ${seconds(started)}`)
    }
    // Two lanes on two cores: the first image (emulator-lite, whose better-sqlite3 compiles on one
    // core for about a minute and a half from nothing) beside the others one after another.
    const [first, ...rest] = services
    const inLane = (names: string[]) => services.filter(([name]) => names.includes(name))
    const lanes = this.lanes
      ? this.lanes.map(async (names) => {
          for (const entry of inLane(names)) await buildOne(entry)
        })
      : [
          first ? buildOne(first) : Promise.resolve(),
          (async () => {
            for (const entry of rest) await buildOne(entry)
          })(),
        ]
    const results = await Promise.allSettled(lanes)
    const failed = results.find((result) => result.status === 'rejected')
    if (failed) throw failed.reason
    return services.map(([name]) => this.imageOf(name))
  }

  /** Runs every healthcheck of the project's running containers every 2 s, until stopTicker(). */
  startTicker(): void {
    if (this.ticker) return
    const noHealthcheck = new Set<string>()
    const busy = new Set<string>()
    const tick = async () => {
      const { stdout } = await run(
        'podman',
        ['ps', '-q', '--no-trunc', '--filter', `label=com.docker.compose.project=${this.project}`],
        { capture: true, timeoutMs: 20_000 },
      )
      for (const id of stdout.split('\n').filter(Boolean)) {
        if (noHealthcheck.has(id) || busy.has(id)) continue
        busy.add(id)
        run('podman', ['healthcheck', 'run', id], { capture: true, timeoutMs: 30_000 }).then((result) => {
          busy.delete(id)
          if (/no defined healthcheck|has no healthcheck/i.test(result.stderr)) noHealthcheck.add(id)
        })
      }
    }
    let stopped = false
    const loop = (async () => {
      while (!stopped) {
        await tick().catch(() => {})
        await sleep(2000)
      }
    })()
    this.ticker = {
      stop: async () => {
        stopped = true
        await loop
      },
    }
  }

  async stopTicker(): Promise<void> {
    await this.ticker?.stop()
    this.ticker = undefined
  }

  /** The project's containers as podman inspects them, by Compose service. */
  async containers(): Promise<Container[]> {
    const { stdout } = await run(
      'podman',
      ['ps', '-a', '-q', '--no-trunc', '--filter', `label=com.docker.compose.project=${this.project}`],
      { capture: true, timeoutMs: 30_000 },
    )
    const ids = stdout.split('\n').filter(Boolean)
    if (ids.length === 0) return []
    const inspected = await run('podman', ['inspect', ...ids], { capture: true, timeoutMs: 30_000 })
    if (inspected.code !== 0) return []
    return (JSON.parse(inspected.stdout) as Inspected[]).map((container) => ({
      id: container.Id,
      name: container.Name,
      service: container.Config?.Labels?.['com.docker.compose.service'],
      status: container.State?.Status,
      exitCode: container.State?.ExitCode,
      health: container.State?.Health?.Status ?? container.State?.Healthcheck?.Status ?? '',
      ports: container.NetworkSettings?.Ports ?? {},
    }))
  }

  /** The id of the service's running container; throws when there is none. */
  async containerOf(service: string): Promise<string> {
    const container = (await this.containers()).find((c) => c.service === service && c.status === 'running')
    if (!container) {
      const hint = this.startedBy ? ` (${this.startedBy} starts it)` : ''
      throw new Error(`the ${service} service of ${this.project} is not running${hint}`)
    }
    return container.id
  }

  /** `podman exec` in the service's running container. */
  async exec(service: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
    return run('podman', ['exec', await this.containerOf(service), ...args], options)
  }

  async copyFrom(service: string, path: string, target: string): Promise<void> {
    await must('podman', ['cp', `${await this.containerOf(service)}:${path}`, target])
  }

  async copyTo(service: string, file: string, path: string): Promise<void> {
    await must('podman', ['cp', file, `${await this.containerOf(service)}:${path}`])
  }

  /** Why the stack is not (yet) up: '' when every long-running service is healthy and the seed exited 0. */
  async notReady(): Promise<string> {
    const containers = await this.containers()
    const problems: string[] = []
    for (const service of this.longRunning) {
      const container = containers.find((c) => c.service === service)
      if (!container) problems.push(`${service}: no container`)
      else if (container.status !== 'running')
        problems.push(`${service}: ${container.status} (exit ${container.exitCode})`)
      else if (container.health !== 'healthy') problems.push(`${service}: ${container.health || 'no health status'}`)
    }
    for (const service of this.oneShot) {
      const container = containers.find((c) => c.service === service)
      if (!container) problems.push(`${service}: no container`)
      else if (container.status !== 'exited' || container.exitCode !== 0)
        problems.push(`${service}: ${container.status} (exit ${container.exitCode})`)
    }
    return problems.join(', ')
  }

  /**
   * `up --detach` with the ticker running (docker-compose 1.29 itself waits on service_healthy and
   * service_completed_successfully), then waits until every service is healthy. Throws on a timeout
   * or a service that failed.
   */
  async up({ timeoutMs = 6 * 60_000 }: { timeoutMs?: number } = {}): Promise<void> {
    const deadline = Date.now() + timeoutMs
    this.startTicker()
    await this.compose(['up', '--detach', '--no-build'], { timeoutMs })
    let problems = await this.notReady()
    while (problems) {
      if (Date.now() > deadline) throw new Error(`not healthy within ${timeoutMs / 1000} s: ${problems}`)
      if (/exited|unhealthy|no container/.test(problems)) {
        // A failed one-shot or a dead service will not heal: say so now rather than at the deadline.
        const containers = await this.containers()
        const dead = containers.find(
          (c) =>
            (this.longRunning.includes(c.service ?? '') && c.status === 'exited') ||
            (this.oneShot.includes(c.service ?? '') && c.status === 'exited' && c.exitCode !== 0) ||
            c.health === 'unhealthy',
        )
        if (dead) throw new Error(`${dead.service} failed: ${problems}`)
      }
      await sleep(1000)
      problems = await this.notReady()
    }
  }

  async down({ volumes = false }: { volumes?: boolean } = {}): Promise<void> {
    await this.compose(['down', '--remove-orphans', '--timeout', '30', ...(volumes ? ['--volumes'] : [])], {
      timeoutMs: 3 * 60_000,
    })
  }

  async logs(tail = 150): Promise<void> {
    await run('docker-compose', ['logs', '--no-color', `--tail=${tail}`], { env: this.env, timeoutMs: 60_000 })
  }

  async serviceLogs(service: string): Promise<string> {
    const { stdout, stderr } = await run('docker-compose', ['logs', '--no-color', service], {
      env: this.env,
      capture: true,
      timeoutMs: 60_000,
    })
    return `${stdout}${stderr}`
  }

  /**
   * What the api and the backend complained of (an unavailable dependency, a failed health check, a
   * stalled process, a failure), each service's last `max` lines: printed at the end of a failed run,
   * where CI's tail shows them. Stack logs name no person.
   */
  async complaints(services = ['api', 'emulators'], max = 12): Promise<string> {
    const lines: string[] = []
    for (const service of services) {
      const text = await this.serviceLogs(service).catch(() => '')
      lines.push(
        ...text
          .split('\n')
          .filter((line) => COMPLAINT.test(line))
          .slice(-max),
      )
    }
    return lines.length > 0 ? `the api's and the backend's last complaints:\n${lines.join('\n')}` : ''
  }

  /** Everything this project made, removed whatever state it is in (images unless keepImages). */
  async removeEverything({ images = [], keepImages = false }: { images?: string[]; keepImages?: boolean } = {}) {
    const label = `label=com.docker.compose.project=${this.project}`
    await run('docker-compose', ['down', '--remove-orphans', '--volumes', '--timeout', '20'], {
      env: this.env,
      capture: true,
      timeoutMs: 3 * 60_000,
    })
    const left = async (kind: string) =>
      (await run('podman', [kind, 'ls', '-q', '--filter', label], { capture: true })).stdout.split('\n').filter(Boolean)
    const containers = (await run('podman', ['ps', '-a', '-q', '--filter', label], { capture: true })).stdout
      .split('\n')
      .filter(Boolean)
    if (containers.length) await run('podman', ['rm', '-f', '-v', ...containers], { capture: true })
    const volumes = await left('volume')
    if (volumes.length) await run('podman', ['volume', 'rm', '-f', ...volumes], { capture: true })
    const networks = await left('network')
    if (networks.length) await run('podman', ['network', 'rm', '-f', ...networks], { capture: true })
    if (!keepImages && images.length) await run('podman', ['rmi', '-f', ...images], { capture: true })
  }
}

/**
 * What an earlier run killed before its cleanup left behind (containers, volumes, networks and images
 * of projects named `prefix…`): removed first, so killed runs never pile up.
 */
export async function removeLeftovers(prefix: string): Promise<void> {
  const names = async (args: string[]) =>
    (await run('podman', args, { capture: true, timeoutMs: 60_000 })).stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith(prefix))
  const containers = await names(['ps', '-a', '--format', '{{.Names}}'])
  const volumes = await names(['volume', 'ls', '--format', '{{.Name}}'])
  const networks = await names(['network', 'ls', '--format', '{{.Name}}'])
  // Images are named localhost/<prefix>…_service (podman build) or docker.io/library/… .
  const images = (await run('podman', ['images', '--format', '{{.Repository}}:{{.Tag}}'], { capture: true })).stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => new RegExp(`^(localhost/|docker\\.io/library/)?${prefix}`).test(line))
  if (containers.length + volumes.length + networks.length + images.length === 0) return
  log(`removing what an interrupted run left: ${[...containers, ...volumes, ...networks, ...images].join(' ')}`)
  if (containers.length) await run('podman', ['rm', '-f', '-v', ...containers], { capture: true })
  if (volumes.length) await run('podman', ['volume', 'rm', '-f', ...volumes], { capture: true })
  if (networks.length) await run('podman', ['network', 'rm', '-f', ...networks], { capture: true })
  if (images.length) await run('podman', ['rmi', '-f', ...images], { capture: true })
}

/** The pass/fail lines of a container test (`make test-containers`, `make test-pilot`). */
export class Checks {
  passed = 0
  failed = 0
  /** The failed checks' lines, printed again with the totals (where CI's tail of the log shows them). */
  readonly failures: string[] = []

  /** Records one check; never throws. Returns whether it passed. */
  ok(condition: unknown, what: string, detail: unknown = ''): boolean {
    if (condition) {
      this.passed++
      console.log(`  ok      ${what}`)
    } else {
      this.failed++
      const line = `${what}${detail !== '' ? `: ${String(detail).slice(0, 400)}` : ''}`
      this.failures.push(line)
      console.log(`  FAILED  ${line}`)
    }
    return Boolean(condition)
  }

  /** The totals, then each failure again and what stopped the run, if anything did. */
  summary(name: string, stoppedBy: unknown): void {
    console.log(`${name}: ${this.passed} passed, ${this.failed} failed`)
    for (const line of this.failures) console.log(`  FAILED  ${line}`)
    if (stoppedBy !== undefined) {
      const message = stoppedBy instanceof Error ? stoppedBy.message : String(stoppedBy)
      console.log(`  stopped by: ${message.split('\n')[0]}`)
    }
  }
}

/**
 * A container test's phases, each logged and timed; once one has failed (or a signal came) no further
 * phase starts unless it says `always` (the cleanup).
 */
export class Phases {
  readonly timings: [string, number][] = []
  failure: unknown
  readonly #log: (message: string) => void

  constructor(logger: (message: string) => void = log) {
    this.#log = logger
  }

  async run<T>(name: string, action: () => Promise<T>, { always = false }: { always?: boolean } = {}): Promise<T> {
    if (this.failure !== undefined && !always) throw this.failure
    const since = Date.now()
    this.#log(`--- ${name} ---`)
    try {
      return await action()
    } finally {
      this.timings.push([name, Date.now() - since])
      this.#log(`${name}: ${seconds(since)}`)
    }
  }

  /** Prints every phase's time and the total since `started`. */
  print(title: string, started: number): void {
    console.log(`${title}: timings`)
    for (const [name, ms] of this.timings) console.log(`  ${name.padEnd(64)} ${(ms / 1000).toFixed(1)} s`)
    console.log(`  ${'total'.padEnd(64)} ${seconds(started)}`)
  }
}

/** The whole `make up` on either engine. */
async function commandUp(args: string[]): Promise<void> {
  const build = !args.includes('--no-build')
  const engine = chooseEngine()
  const env = composeEnvironment()
  // emulator-lite signs its tokens and believes no unsigned one (issue 27); the official emulators
  // believe anyone's word, so they run only when COMPOSE_FILE names docker-compose.yml alone.
  if (!env.COMPOSE_FILE) {
    env.COMPOSE_FILE = LITE_FILES
    log(
      'compose: the lite variant (emulator-lite, tokens=signed); COMPOSE_FILE=docker-compose.yml runs the official emulators, which believe unsigned tokens',
    )
  }
  if (engine === 'docker') {
    await must('docker', ['compose', 'up', ...(build ? ['--build'] : []), '--detach', '--wait'], { env })
  } else {
    const podman = await startPodman()
    try {
      Object.assign(env, podman.env, await baseImages(env))
      const stack = new PodmanCompose(env.COMPOSE_PROJECT_NAME ?? 'bosted', env)
      if (build) await stack.build()
      try {
        await stack.up()
      } catch (error) {
        await stack.stopTicker()
        await stack.logs(80)
        throw error
      }
      await stack.stopTicker()
    } finally {
      await podman.stop()
    }
  }
  console.log(`Bosted is ready: http://${env.PUBLIC_HOST || 'localhost'}:${env.APP_PORT || PUBLISHED_PORTS.APP_PORT}`)
}

async function commandPassThrough(composeArgs: string[]): Promise<void> {
  const engine = chooseEngine()
  const env = composeEnvironment()
  env.COMPOSE_FILE ||= LITE_FILES
  if (engine === 'docker') {
    const { code } = await run('docker', ['compose', ...composeArgs], { env })
    process.exitCode = code
    return
  }
  const podman = await startPodman()
  try {
    Object.assign(env, podman.env)
    const { code } = await run('docker-compose', composeArgs, { env })
    process.exitCode = code
  } finally {
    await podman.stop()
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv
  if (command === 'up') return commandUp(args)
  if (command === 'down') return commandPassThrough(['down', ...args])
  if (command === 'logs') return commandPassThrough(['logs', '--follow', ...args])
  console.error(
    "usage: node infra/docker/compose.ts up [--no-build] | down [-v] | logs (QA's run: node infra/docker/test-containers.ts)",
  )
  process.exitCode = 2
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`containers: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  })
}
