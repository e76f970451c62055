import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { expect, test } from 'vitest'
import { REPO_ROOT } from './env.ts'
import { freePort } from './ports.ts'

test('the integration setup gives every test the Auth emulator through the environment', async () => {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST
  expect(host).toMatch(/^127\.0\.0\.1:\d+$/)
  const response = await fetch(`http://${host}/`)
  expect(await response.json()).toMatchObject({ authEmulator: { ready: true } })
})

test('make start fails fast naming the taken port and its variable, without a stack trace', async () => {
  const blocker = createServer()
  const port = await freePort()
  blocker.listen(port, '127.0.0.1')
  await once(blocker, 'listening')
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/stack/src/cli.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, AUTH_PORT: String(port) },
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(stderr.trim()).toBe(
      `Port ${port} is already in use (AUTH_PORT). Stop what is using it, or set AUTH_PORT to another port.`,
    )
  } finally {
    blocker.close()
  }
})
