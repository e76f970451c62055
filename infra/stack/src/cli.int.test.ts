import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { REPO_ROOT } from './env.ts'
import { freePort, isPortFree } from './ports.ts'

async function portEnv(): Promise<Record<string, string>> {
  const names = [
    'APP_PORT',
    'API_PORT',
    'AUTH_PORT',
    'FIRESTORE_PORT',
    'STORAGE_PORT',
    'EMULATOR_ADMIN_PORT',
    'EMULATOR_HUB_PORT',
    'EMULATOR_LOGGING_PORT',
  ]
  const entries: [string, string][] = []
  for (const name of names) entries.push([name, String(await freePort())])
  return Object.fromEntries(entries)
}

function waitForOutput(child: ChildProcess, text: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${timeoutMs} ms:\n${output}`)), timeoutMs)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(text)) {
        clearTimeout(timer)
        resolve(output)
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before "${text}":\n${output}`))
    })
  })
}

/** Processes whose command line mentions the data directory (every service we start gets it). */
function processesUsing(marker: string): string[] {
  const lines = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n')
  return lines.filter((line) => line.includes(marker) && !line.includes('ps -eo'))
}

test('make start prints ready with the URLs, and Ctrl-C leaves no process or port behind', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosted-cli-'))
  const ports = await portEnv()
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/stack/src/cli.ts', '--no-build'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...ports, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  try {
    const output = await waitForOutput(child, 'Press Ctrl-C to stop.', 150_000)
    expect(output).toContain('Bosted is ready')
    // Nobody is believed on their word: make start says its tokens are signed (issue 27 point 5).
    expect(output).toContain('Auth in emulator-lite, tokens=signed')
    expect(output).toContain(`auth       http://127.0.0.1:${ports.AUTH_PORT}`)
    expect(output).toContain('admin@demo.dk')
    expect(output).toContain('demo1234')
    expect(processesUsing(dataDir).length).toBeGreaterThan(0)

    child.kill('SIGINT')
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
    expect(processesUsing(dataDir)).toEqual([])
    for (const port of Object.values(ports)) expect(await isPortFree(Number(port))).toBe(true)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 180_000)
