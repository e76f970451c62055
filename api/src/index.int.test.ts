import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { freePort } from '@bosted/stack/ports'
import { expect, test } from 'vitest'

const entry = fileURLToPath(new URL('./index.ts', import.meta.url))

test('the api process serves /api/health on API_HOST:API_PORT and stops on SIGTERM', async () => {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, API_HOST: '127.0.0.1', API_PORT: String(port), COOKIE_SECURE: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => {
    output += chunk
  })
  child.stderr.on('data', (chunk) => {
    output += chunk
  })
  try {
    let health: Response | undefined
    for (let attempt = 0; attempt < 200 && !health; attempt++) {
      health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined)
      if (!health) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(health?.status, output).toBe(200)
    expect(output).toContain(`api listening on http://127.0.0.1:${port}/api`)
  } finally {
    child.kill('SIGTERM')
  }
  const [code] = await once(child, 'exit')
  expect(code).toBe(0)
})

test('the api process refuses to start without its configuration and names what is missing', () => {
  const env = { ...process.env }
  delete env.FIREBASE_PROJECT_ID
  delete env.FIREBASE_AUTH_EMULATOR_HOST
  delete env.FIREBASE_WEB_API_KEY
  const run = spawnSync(process.execPath, ['--import', 'tsx', entry], { env, encoding: 'utf8', timeout: 30_000 })
  expect(run.status).not.toBe(0)
  expect(run.stderr).toContain('FIREBASE_PROJECT_ID')
})
