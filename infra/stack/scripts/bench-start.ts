// `make bench` (make start): time from launch to ready (URLs printed) on a warm start (data, seed and
// web bundle already there, nothing changed), with emulator-lite's Auth and with the official one.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REPO_ROOT } from '../src/env.ts'
import { freePort } from '../src/ports.ts'

async function start(env: Record<string, string>): Promise<{ child: ChildProcess; ms: number; output: string }> {
  const started = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/stack/src/cli.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Press Ctrl-C to stop.')) resolve()
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`make start exited with ${code}:\n${output}`)))
  })
  return { child, ms: performance.now() - started, output }
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit')
  child.kill('SIGINT')
  await exited
}

const lines: string[] = []
for (const auth of ['lite', 'official']) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'))
  const env: Record<string, string> = { DATA_DIR: dataDir, AUTH_EMULATOR: auth }
  for (const name of ['APP_PORT', 'API_PORT', 'AUTH_PORT', 'FIRESTORE_PORT', 'STORAGE_PORT', 'EMULATOR_ADMIN_PORT']) {
    env[name] = String(await freePort())
  }
  env.EMULATOR_HUB_PORT = String(await freePort())
  env.EMULATOR_LOGGING_PORT = String(await freePort())
  try {
    const cold = await start(env)
    await stop(cold.child)
    const warm = await start(env)
    await stop(warm.child)
    const emulators = warm.output.match(/emulators ready in (\d+) ms/)?.[1] ?? '?'
    const built = warm.output.includes('building the web app') ? 'rebuilt the web bundle' : 'web bundle reused'
    lines.push(
      `${`AUTH_EMULATOR=${auth}`.padEnd(24)} cold ${(cold.ms / 1000).toFixed(1)} s · warm ${(warm.ms / 1000).toFixed(1)} s (emulators healthy in ${emulators} ms, ${built})`,
    )
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
console.log('make start to ready (first run seeds; the warm run follows a clean stop):')
for (const line of lines) console.log(`  ${line}`)
