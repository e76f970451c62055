import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { summarize } from '@bosted/docker/e2e-report'
import { afterEach, expect, test } from 'vitest'
import { parseForwards, useExternalTarget } from '../e2e/target.ts'

const servers: Server[] = []
const saved = { ...process.env }
afterEach(async () => {
  process.env = { ...saved }
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler)
  servers.push(server)
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))
}

async function freePort(): Promise<number> {
  const port = await listen(() => {})
  await new Promise((resolve) => servers.pop()?.close(resolve))
  return port
}

test('E2E_FORWARD pairs are parsed, and a malformed one is refused by name', () => {
  expect(parseForwards(' 8000=web:8000\n 9099=emulators:9099 ')).toEqual([
    { port: 8000, host: 'web', targetPort: 8000 },
    { port: 9099, host: 'emulators', targetPort: 9099 },
  ])
  expect(() => parseForwards('8000=web')).toThrow('E2E_FORWARD: expected localPort=host:port, got 8000=web')
})

test('an external target: the forward carries the browser to the app, and missing settings are named', async () => {
  const app = await listen((request, response) => {
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ path: request.url }))
  })
  const local = await freePort()
  process.env.E2E_FORWARD = `${local}=127.0.0.1:${app}`
  process.env.E2E_BASE_URL = `http://127.0.0.1:${local}`
  for (const key of ['FIREBASE_PROJECT_ID', 'FIREBASE_AUTH_EMULATOR_HOST', 'FIRESTORE_EMULATOR_HOST'])
    delete process.env[key]
  await expect(useExternalTarget('compose')).rejects.toThrow(
    'E2E_TARGET=compose needs FIREBASE_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST, FIRESTORE_EMULATOR_HOST in the environment',
  )
  Object.assign(process.env, {
    FIREBASE_PROJECT_ID: 'demo-bosted',
    FIREBASE_AUTH_EMULATOR_HOST: 'emulators:9098',
    FIRESTORE_EMULATOR_HOST: 'emulators:9098',
  })
  const stop = await useExternalTarget('compose')
  const answer = await fetch(`http://127.0.0.1:${local}/api/health`)
  expect(await answer.json()).toEqual({ path: '/api/health' })
  await stop()
  await expect(fetch(`http://127.0.0.1:${local}/`)).rejects.toThrow()
})

test("the run's summary counts Playwright's JSON report and names each failed test with its project", () => {
  const report = {
    stats: { expected: 2, unexpected: 1, flaky: 0, skipped: 0 },
    suites: [
      {
        title: 'canary.spec.ts',
        file: 'canary.spec.ts',
        specs: [
          {
            title: 'canary: a deliberately broken journey',
            file: 'canary.spec.ts',
            tests: [{ projectName: 'desktop', status: 'unexpected' }],
          },
        ],
        suites: [
          {
            title: 'sign-in',
            specs: [{ title: 'an admin signs in', tests: [{ projectName: 'phone', status: 'expected' }] }],
          },
        ],
      },
    ],
  }
  expect(summarize(report)).toEqual({
    counts: { passed: 2, failed: 1, flaky: 0, skipped: 0 },
    failed: ['[desktop] canary.spec.ts › canary: a deliberately broken journey'],
  })
})
