import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_PASSWORD } from '@bosted/domain'
import { expect, test } from 'vitest'
import { REPO_ROOT } from './env.ts'
import { freePort } from './ports.ts'

function startCli(env: Record<string, string>): { child: ChildProcess; ready: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/stack/src/cli.ts', '--no-build'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const ready = new Promise<string>((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Press Ctrl-C to stop.')) resolve(output)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`make start exited with ${code}:\n${output}`)))
  })
  return { child, ready }
}

/** kill -9 the launcher and every process below it at once, like a power cut. */
function killTree(root: number): void {
  const rows = execFileSync('ps', ['-eo', 'pid,ppid'], { encoding: 'utf8' })
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/).map(Number))
  const tree = [root]
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, ppid] of rows) if (ppid === tree[i] && pid !== undefined) tree.push(pid)
  }
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}

async function signIn(authPort: string, email: string, password: string): Promise<Record<string, unknown>> {
  const response = await fetch(
    `http://127.0.0.1:${authPort}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  )
  return (await response.json()) as Record<string, unknown>
}

test('accounts created while make start runs, and the demo accounts, survive kill -9 of every process; no file the stack wrote holds a password, a live token or a private key', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosted-auth-kill-'))
  const env: Record<string, string> = { DATA_DIR: dataDir, AUTH_EMULATOR: 'lite' }
  for (const name of ['APP_PORT', 'API_PORT', 'AUTH_PORT', 'FIRESTORE_PORT', 'STORAGE_PORT', 'EMULATOR_ADMIN_PORT']) {
    env[name] = String(await freePort())
  }
  let stack = startCli(env)
  try {
    await stack.ready
    const signUp = await fetch(
      `http://127.0.0.1:${env.AUTH_PORT}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ny.borger@demo.dk', password: 'ny-hemmelig-1', returnSecureToken: true }),
      },
    )
    expect(signUp.status).toBe(200)

    const exited = once(stack.child, 'exit')
    killTree(stack.child.pid as number)
    await exited

    stack = startCli(env)
    await stack.ready
    expect(await signIn(env.AUTH_PORT as string, 'ny.borger@demo.dk', 'ny-hemmelig-1')).toMatchObject({
      email: 'ny.borger@demo.dk',
    })
    const admin = await signIn(env.AUTH_PORT as string, 'admin@demo.dk', DEMO_PASSWORD)
    expect(admin).toMatchObject({ email: 'admin@demo.dk' })

    // Neither a password nor a live token is in any file the stack wrote: databases, WAL, every log.
    const secrets = ['ny-hemmelig-1', DEMO_PASSWORD, admin.idToken, admin.refreshToken]
    expect(secrets.every((secret) => typeof secret === 'string' && secret.length >= 6)).toBe(true)
    // Nor is any private key of emulator-lite's outside its two 0600 key files (logs included).
    const keyFiles = ['signing-keys.json', 'service-account.json']
    const keyDir = join(dataDir, 'emulator-lite')
    const keys = JSON.parse(readFileSync(join(keyDir, 'signing-keys.json'), 'utf8')) as Record<string, unknown>
    const pems = [
      ...[...(keys.id as { privateKey: string }[]), ...(keys.session as { privateKey: string }[])].map(
        (key) => key.privateKey,
      ),
      (JSON.parse(readFileSync(join(keyDir, 'service-account.json'), 'utf8')) as { private_key: string }).private_key,
    ]
    for (const file of keyFiles) expect(statSync(join(keyDir, file)).mode & 0o777, file).toBe(0o600)
    const keyLines = pems.map((pem) => pem.split('\n')[2] as string)
    expect(keyLines.every((line) => line.length === 64)).toBe(true)
    const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
    expect(files.some((entry) => entry.name.endsWith('.log'))).toBe(true)
    for (const entry of files) {
      const bytes = readFileSync(join(entry.parentPath, entry.name))
      for (const secret of secrets)
        expect(bytes.includes(secret as string), join(entry.parentPath, entry.name)).toBe(false)
      if (keyFiles.includes(entry.name) && entry.parentPath === keyDir) continue
      for (const line of keyLines) expect(bytes.includes(line), join(entry.parentPath, entry.name)).toBe(false)
    }
  } finally {
    if (stack.child.exitCode === null && stack.child.signalCode === null) {
      const exited = once(stack.child, 'exit')
      stack.child.kill('SIGINT')
      await exited
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 240_000)
