import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { Browser } from '@playwright/test'
import { DockerComposeEnvironment, type StartedDockerComposeEnvironment, Wait } from 'testcontainers'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { launchChromium, ROLE_ACCOUNTS, runSmokeJourney, signInAs } from './smoke.ts'

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
const engine = inject('dockerEngine')

/** The files `make up` would use: COMPOSE_FILE when set (e.g. with the lite override), else the base file. */
const composeFiles = (process.env.COMPOSE_FILE ?? 'docker-compose.yml').split(':').filter(Boolean)
/**
 * Set by `make test-containers` on podman (infra/docker/test-containers.ts), which has built and
 * started the stack itself under this project name and these ports: the suite attaches to it
 * (testcontainers through podman's Docker API socket, docker-compose 1.29) and leaves it running.
 */
const attachedProject = process.env.BOSTED_COMPOSE_PROJECT
const PORT_NAMES = [
  'APP_PORT',
  'AUTH_PORT',
  'FIRESTORE_PORT',
  'STORAGE_PORT',
  'EMULATOR_UI_PORT',
  'EMULATOR_HUB_PORT',
  'EMULATOR_LOGGING_PORT',
  'FIRESTORE_WS_PORT',
]

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

// Skipped (and announced once by vitest.config.ts) when no Docker engine answers: never a pass.
describe.skipIf(!engine.available)(`the Compose stack (${composeFiles.join(' + ')})`, () => {
  let environment: StartedDockerComposeEnvironment | undefined
  let browser: Browser | undefined
  let baseUrl = ''
  let ports: Record<string, number> = {}
  const host = attachedProject ? (process.env.PUBLIC_HOST ?? 'localhost') : engine.available ? engine.host : 'localhost'

  beforeAll(async () => {
    if (attachedProject) {
      ports = Object.fromEntries(PORT_NAMES.map((name) => [name, Number(process.env[name])]))
      browser = await launchChromium()
      // --no-recreate --no-deps: the running services stay as they are (the one-shot seed is not run
      // again); testcontainers then waits on each one's healthcheck through the engine's API.
      environment = await new DockerComposeEnvironment(REPO_ROOT, composeFiles)
        // withNoRecreate() sets a project name of its own: name ours after it.
        .withNoRecreate()
        .withProjectName(attachedProject)
        .withClientOptions({
          executable: process.env.BOSTED_COMPOSE_STANDALONE ? { standalone: true } : undefined,
          commandOptions: ['--no-deps'],
        })
        .withDefaultWaitStrategy(Wait.forHealthCheck())
        .withStartupTimeout(3 * 60_000)
        .up(['emulators', 'api', 'web'])
      baseUrl = `http://${host}:${ports.APP_PORT}`
      return
    }
    // Free host ports, so the suite never collides with `make up` or the native stack.
    ports = Object.fromEntries(await Promise.all(PORT_NAMES.map(async (name) => [name, await freePort()] as const)))
    // The browser first: a host without chromium fails in a second, not after a half-hour build.
    browser = await launchChromium()
    const isLocal = host === 'localhost' || host === '127.0.0.1'
    environment = await new DockerComposeEnvironment(REPO_ROOT, composeFiles)
      .withBuild()
      .withEnvironment({
        ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
        // A remote engine (DOCKER_HOST=tcp://…) publishes on its own interfaces.
        BIND_ADDRESS: isLocal ? '127.0.0.1' : '0.0.0.0',
        PUBLIC_HOST: host,
      })
      .withDefaultWaitStrategy(Wait.forHealthCheck())
      .withStartupTimeout(10 * 60_000)
      .up()
    baseUrl = `http://${host}:${ports.APP_PORT}`
  })

  afterAll(async () => {
    await browser?.close()
    // An attached stack belongs to the harness that started it, which removes it.
    if (!attachedProject) await environment?.down({ removeVolumes: true, timeout: 60_000 })
  })

  test('the app serves its runtime configuration pointing the browser at the published emulators', async () => {
    const response = await fetch(`${baseUrl}/config.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toContain('no-cache')
    const config = await response.json()
    expect(config.firebase.projectId).toBe('demo-bosted')
    expect(config.emulators).toEqual({
      auth: `http://${host}:${ports.AUTH_PORT}`,
      firestore: `${host}:${ports.FIRESTORE_PORT}`,
      storage: `${host}:${ports.STORAGE_PORT}`,
    })
    const csp = (await fetch(baseUrl)).headers.get('content-security-policy') ?? ''
    expect(csp).toContain(`connect-src 'self' http://${host}:${ports.AUTH_PORT}`)
    expect(csp).toContain("frame-ancestors 'none'")
  })

  test('nginx proxies /api to a healthy api', async () => {
    const response = await fetch(`${baseUrl}/api/health`)
    expect(response.status).toBe(200)
  })

  test('every role signs in and lands on the daily overview, its name in the header', async () => {
    for (const account of ROLE_ACCOUNTS) await signInAs(browser as Browser, baseUrl, account)
  })

  test('an admin signs in and reaches one page per area through the header', async () => {
    await runSmokeJourney(browser as Browser, baseUrl)
  })
})
