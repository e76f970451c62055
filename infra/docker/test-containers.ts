// `make test-containers`: QA's and the pilot's promises, run against the real Compose stack
// (docker-compose.yml + docker-compose.lite.yml) on podman, from nothing:
//   1. podman installed and configured (infra/docker/podman-setup.sh), its Docker API on a socket;
//   2. the base images built locally when missing (infra/docker/local-bases.sh; kept for the next run);
//   3. the four images built from the Compose file's build sections;
//   4. `up`, as `make up` does it: the URL is printed only once every service is healthy;
//   5. nginx serves the SPA, /config.json and /api with the security headers; the api publishes no port;
//      the seed ran once;
//   6. `down` + `up` keeps the data (the named volume) and the seed is a no-op the second time;
//   7. QA's smoke (tests/containers/compose.test.ts, testcontainers through the socket, its reaper
//      disabled): /config.json, /api through nginx, every role signs in, the header, one page per area;
//   8. everything it created is removed: containers, networks, volumes, and the images it built
//      (--keep-images keeps them). The base images and podman's layer cache stay, for the next run.
// Every published port is a free one chosen here, so a native stack on the default ports is never
// disturbed. Each phase is timed; on a failure the containers' state and logs are printed.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import {
  baseImages,
  Checks,
  chooseEngine,
  type Env,
  freePorts,
  LITE_FILES,
  log,
  Phases,
  type Podman,
  PodmanCompose,
  type PublishedPorts,
  ROOT,
  removeLeftovers,
  run,
  startPodman,
} from './compose.ts'

const PROJECT_ID = 'demo-bosted'

type Target = { host: string; ports: PublishedPorts }

async function fetchText(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) })
  return { response, body: await response.text() }
}

function securityHeaders(checks: Checks, label: string, response: Response): void {
  const csp = response.headers.get('content-security-policy') ?? ''
  checks.ok(
    csp.includes("frame-ancestors 'none'") && csp.includes("default-src 'self'"),
    `${label}: Content-Security-Policy`,
    csp || 'missing',
  )
  checks.ok(response.headers.get('x-content-type-options') === 'nosniff', `${label}: X-Content-Type-Options nosniff`)
  checks.ok(
    response.headers.get('referrer-policy') === 'strict-origin-when-cross-origin',
    `${label}: Referrer-Policy`,
    response.headers.get('referrer-policy') ?? 'missing',
  )
}

/** nginx: the SPA (with its fallback), /config.json and /api, each with the security headers. */
async function checkWeb(checks: Checks, stack: PodmanCompose, { host, ports }: Target): Promise<void> {
  const base = `http://${host}:${ports.APP_PORT}`
  const index = await fetchText(`${base}/`)
  checks.ok(
    index.response.status === 200 && index.body.includes('<div id="root"'),
    'GET / serves the SPA',
    `${index.response.status}`,
  )
  securityHeaders(checks, 'GET /', index.response)
  checks.ok(
    (index.response.headers.get('content-security-policy') ?? '').includes(
      `connect-src 'self' http://${host}:${ports.AUTH_PORT}`,
    ),
    "GET /: the CSP's connect-src names the published Auth emulator",
  )
  const deep = await fetchText(`${base}/daily`)
  checks.ok(
    deep.response.status === 200 && deep.body === index.body,
    'GET /daily falls back to index.html (SPA routing)',
  )
  const asset = index.body.match(/src="(\/assets\/[^"]+\.js)"/)?.[1]
  if (asset) {
    const script = await fetch(`${base}${asset}`)
    await script.arrayBuffer()
    checks.ok(
      script.status === 200 && (script.headers.get('cache-control') ?? '').includes('immutable'),
      `GET ${asset}: 200, cached as immutable`,
    )
  } else checks.ok(false, 'index.html names a hashed script under /assets/')

  const config = await fetchText(`${base}/config.json`)
  let parsed: { firebase?: { projectId?: string }; emulators?: Record<string, string> } = {}
  try {
    parsed = JSON.parse(config.body)
  } catch {}
  checks.ok(
    config.response.status === 200 && (config.response.headers.get('cache-control') ?? '').includes('no-cache'),
    'GET /config.json: 200, no-cache',
  )
  checks.ok(
    parsed.firebase?.projectId === PROJECT_ID &&
      parsed.emulators?.auth === `http://${host}:${ports.AUTH_PORT}` &&
      parsed.emulators?.firestore === `${host}:${ports.FIRESTORE_PORT}` &&
      parsed.emulators?.storage === `${host}:${ports.STORAGE_PORT}`,
    '/config.json names the project and the published emulators',
    config.body.slice(0, 300),
  )
  securityHeaders(checks, 'GET /config.json', config.response)

  const health = await fetchText(`${base}/api/health`)
  checks.ok(
    health.response.status === 200,
    'GET /api/health through nginx: 200',
    `${health.response.status} ${health.body}`,
  )
  securityHeaders(checks, 'GET /api/health', health.response)

  // The api publishes no port: nginx (web) is the only way in from outside the Compose network.
  const containers = await stack.containers()
  const api = containers.find((c) => c.service === 'api')
  const published = Object.values(api?.ports ?? {}).filter((bindings) => Array.isArray(bindings) && bindings.length)
  checks.ok(Boolean(api) && published.length === 0, 'the api container publishes no port', JSON.stringify(api?.ports))
  const others = containers
    .flatMap((c) => Object.values(c.ports ?? {}))
    .flat()
    .flatMap((binding) => (binding ? [Number(binding.HostPort)] : []))
  const expected = new Set(Object.values(ports).map(Number))
  checks.ok(
    others.length > 0 && others.every((port) => expected.has(port)),
    'every published port is one of the chosen ones (none for the api)',
    others.join(' '),
  )
}

const markerUrl = ({ host, ports }: Target) =>
  `http://${host}:${ports.FIRESTORE_PORT}/v1/projects/${PROJECT_ID}/databases/(default)/documents/containerChecks/persistence`

/**
 * emulator-lite's admin secret, read inside its container (it never leaves the data volume otherwise):
 * the published ports believe no `owner`, only this (docs/decisions/0011-privilege-and-one-http-core.md).
 */
async function adminSecret(stack: PodmanCompose): Promise<string> {
  const { code, stdout } = await stack.exec('emulators', ['cat', '/data/emulator-lite/admin-secret'], {
    capture: true,
    timeoutMs: 30_000,
  })
  if (code !== 0 || stdout.trim() === '') throw new Error('could not read the admin secret in the emulators container')
  return stdout.trim()
}

/**
 * The Node binary PID 1 of each long-running Node container runs, asked for its version (not the one
 * on PATH): every one must be on the pinned major (.node-version, ADR 0016).
 */
async function nodeMajors(stack: PodmanCompose): Promise<Record<string, string>> {
  const majors: Record<string, string> = {}
  for (const c of await stack.containers()) {
    if (c.service !== 'emulators' && c.service !== 'api') continue
    // PID 1 may be the init the engine adds (catatonit, tini): the first process whose binary is a node.
    const script =
      'for p in /proc/[0-9]*; do e=$(readlink "$p/exe" 2>/dev/null); case "$e" in */node) "$e" -p process.versions.node; exit;; esac; done'
    const { stdout, stderr } = await run('podman', ['exec', c.id, 'sh', '-c', script], {
      capture: true,
      timeoutMs: 30_000,
    })
    majors[c.service ?? c.name] = stdout.trim().split('.')[0] || `none (${stderr.trim().slice(0, 200)})`
  }
  return majors
}

async function writeMarker(target: Target, value: string, secret: string): Promise<void> {
  const name = `projects/${PROJECT_ID}/databases/(default)/documents/containerChecks/persistence`
  const response = await fetch(markerUrl(target).replace(/\/containerChecks\/persistence$/, ':commit'), {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ writes: [{ update: { name, fields: { run: { stringValue: value } } } }] }),
    signal: AbortSignal.timeout(15_000),
  })
  const body = await response.text()
  if (!response.ok) throw new Error(`writing the marker document answered ${response.status}: ${body}`)
}

async function readMarker(target: Target, secret: string): Promise<string | undefined> {
  const response = await fetch(markerUrl(target), {
    headers: { authorization: `Bearer ${secret}` },
    signal: AbortSignal.timeout(15_000),
  })
  if (!response.ok) return `HTTP ${response.status}`
  return ((await response.json()) as { fields?: { run?: { stringValue?: string } } }).fields?.run?.stringValue
}

async function diagnostics(stack: PodmanCompose): Promise<void> {
  console.log('\ncontainers: --- diagnostics: containers ---')
  for (const c of await stack.containers().catch(() => [])) {
    console.log(`  ${c.service ?? c.name}: ${c.status} exit=${c.exitCode} health=${c.health || '-'}`)
    if (c.health && c.health !== 'healthy') {
      await run('podman', ['inspect', '--format', '{{json .State.Health.Log}}', c.id])
    }
  }
  console.log('containers: --- diagnostics: logs (last 150 lines per service) ---')
  await stack.logs(150).catch(() => {})
}

export async function runTest(args: string[]): Promise<void> {
  const keepImages = args.includes('--keep-images') || process.env.KEEP_IMAGES === '1'
  const started = Date.now()
  // A phase does not start after SIGINT/SIGTERM: the run goes straight to its cleanup.
  const phases = new Phases()
  const phase = phases.run.bind(phases)
  const engine = chooseEngine()
  if (engine !== 'podman') {
    // A Docker engine with Compose v2: QA's suite builds and starts its own stack (testcontainers).
    log('Docker Engine with Compose v2: running tests/containers against a fresh stack')
    const result = await run(
      'npx',
      ['vitest', 'run', '--config', 'tests/containers/vitest.config.ts', 'tests/containers/compose.test.ts'],
      { env: process.env },
    )
    process.exitCode = result.code
    return
  }

  const checks = new Checks()
  let podman: Podman | undefined
  let stack: PodmanCompose | undefined
  let images: string[] = []
  const host = 'localhost'
  const interrupted = (signal: NodeJS.Signals) => {
    phases.failure ??= new Error(`interrupted by ${signal}`)
    log(`${signal}: cleaning up, then exiting`)
  }
  process.once('SIGINT', interrupted)
  process.once('SIGTERM', interrupted)
  try {
    podman = await phase('podman setup', startPodman)
    await removeLeftovers('bosted-test-')
    const bases = await phase('base images', () => baseImages())
    const ports = await freePorts()
    const project = `bosted-test-${randomBytes(3).toString('hex')}`
    const env: Env = {
      ...process.env,
      ...podman.env,
      ...bases,
      ...ports,
      COMPOSE_FILE: LITE_FILES,
      BIND_ADDRESS: '127.0.0.1',
      PUBLIC_HOST: host,
    }
    log(
      `project ${project}, ports ${Object.entries(ports)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
    )
    stack = new PodmanCompose(project, env)
    const current = stack
    const target = { host, ports }
    images = await phase('image builds', () => current.build())
    if (phases.failure !== undefined) throw phases.failure

    await phase('up until healthy (first start: empty volume)', () => current.up())
    // `make up` prints its URL exactly here: everything must be healthy and answering right now.
    checks.ok((await current.notReady()) === '', 'when up returns, every service is healthy and the seed has exited 0')
    const first = await fetch(`http://${host}:${ports.APP_PORT}/`)
    await first.arrayBuffer()
    checks.ok(first.status === 200, `the printed URL answers at once: http://${host}:${ports.APP_PORT}`)
    const seedFirst = await current.serviceLogs('seed')
    checks.ok(
      /seed: done: \d+ items, [1-9]\d* written/.test(seedFirst),
      'the seed filled the empty emulators',
      seedFirst.slice(-300),
    )

    await phase('nginx, headers and ports', () => checkWeb(checks, current, target))
    await phase('api recreated alone: nginx follows it', async () => {
      const addressOf = async () => {
        const api = (await current.containers()).find((c) => c.service === 'api')
        const inspected = await run(
          'podman',
          ['inspect', '--format', '{{json .NetworkSettings.Networks}}', api?.id ?? ''],
          {
            capture: true,
          },
        )
        return Object.values(JSON.parse(inspected.stdout || '{}') as Record<string, { IPAddress?: string }>)
          .map((network) => network.IPAddress)
          .join(' ')
      }
      const before = await addressOf()
      await current.compose(['up', '--detach', '--no-deps', '--force-recreate', 'api'], { timeoutMs: 3 * 60_000 })
      await current.up()
      const after = await addressOf()
      let status = 0
      const deadline = Date.now() + 30_000
      while (Date.now() < deadline) {
        status = await fetch(`http://${host}:${ports.APP_PORT}/api/health`, { signal: AbortSignal.timeout(5000) })
          .then(async (response) => {
            await response.arrayBuffer()
            return response.status
          })
          .catch(() => 0)
        if (status === 200) break
        await sleep(1000)
      }
      checks.ok(
        status === 200,
        `/api through nginx answers 200 after the api alone was recreated (${before} → ${after})`,
        `${status}`,
      )
    })
    const pinned = readFileSync(join(ROOT, '.node-version'), 'utf8').trim().split('.')[0]
    const majors = await nodeMajors(current)
    checks.ok(
      majors.emulators === pinned && majors.api === pinned,
      `the emulators' and the api's Node processes run on the pinned major (${pinned})`,
      JSON.stringify(majors),
    )
    const marker = `${project}-${Date.now()}`
    // The published Firestore port takes no word for privilege; the admin secret it does believe.
    const owner = await fetch(markerUrl(target), { headers: { authorization: 'Bearer owner' } })
    checks.ok(owner.status === 403, 'the published Firestore port refuses Bearer owner', `${owner.status}`)
    const secret = await adminSecret(current)
    await writeMarker(target, marker, secret)

    await phase('down (the volumes stay)', async () => {
      await current.down()
      const after = await current.containers()
      checks.ok(after.length === 0, 'down removed every container', after.map((c) => c.name).join(' '))
    })
    await phase('up again until healthy (the same volume)', () => current.up())
    checks.ok((await current.notReady()) === '', 'up again: every service healthy')
    const kept = await readMarker(target, secret)
    checks.ok(kept === marker, 'a document written before down is there after up', `${kept}`)
    const seedSecond = await current.serviceLogs('seed')
    checks.ok(
      /already has data; nothing to do/.test(seedSecond),
      'the seed is a no-op the second time',
      seedSecond.slice(-300),
    )

    // QA's smoke through testcontainers, attached to this stack; the ticker keeps healthchecks running.
    current.startTicker()
    const smoke = await phase('QA smoke (tests/containers, testcontainers through the socket)', () =>
      run(
        'npx',
        ['vitest', 'run', '--config', 'tests/containers/vitest.config.ts', 'tests/containers/compose.test.ts'],
        {
          env: {
            ...env,
            BOSTED_COMPOSE_PROJECT: project,
            BOSTED_COMPOSE_STANDALONE: '1',
            TESTCONTAINERS_RYUK_DISABLED: 'true',
          },
          timeoutMs: 10 * 60_000,
        },
      ),
    )
    checks.ok(smoke.code === 0, 'QA smoke (tests/containers/compose.test.ts) passed', `vitest exited ${smoke.code}`)
    if (checks.failed > 0) throw new Error(`${checks.failed} check(s) failed`)
  } catch (error) {
    phases.failure ??= error
  } finally {
    const { failure } = phases
    if (stack) {
      const current = stack
      await current.stopTicker()
      if (failure !== undefined) {
        console.error(`\ncontainers: FAILED: ${failure instanceof Error ? failure.message : String(failure)}`)
        await diagnostics(current)
      }
      await phase(
        'cleanup',
        async () => {
          // The images it built; all four names when the builds were cut short (rmi -f of a missing one is harmless).
          const built = images.length
            ? images
            : ['emulators', 'api', 'seed', 'web'].map((name) => current.imageOf(name))
          await current.removeEverything({ images: built, keepImages })
          const left = await current.containers()
          checks.ok(left.length === 0, 'cleanup left no container of the project behind')
        },
        { always: true },
      )
    }
    await podman?.stop()
  }
  console.log('')
  phases.print('containers', started)
  if (phases.failure !== undefined && checks.failed === 0) checks.failed++
  checks.summary('test-containers', phases.failure)
  process.exitCode = checks.failed > 0 ? 1 : 0
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runTest(process.argv.slice(2)).catch((error) => {
    console.error(`containers: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  })
}
