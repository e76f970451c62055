import { type ChildProcess, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { CLI_OPTIONS } from '../src/cli-options.ts'
import { startCliOnFreePorts, startCliProcess } from './cli-process.ts'

const CLI = join(import.meta.dirname, '../src/cli.ts')
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { encoding: 'utf8', timeout: 30_000 })

test('--help prints every option on one line each and exits 0', () => {
  const { status, stdout, stderr } = run('--help')
  expect(status).toBe(0)
  expect(stderr).toBe('')
  expect(stdout).toMatch(/^Usage: emulator-lite \[options\]/)
  for (const [name, option] of Object.entries(CLI_OPTIONS)) {
    const lines = stdout.split('\n').filter((line) => line.includes(`--${name} `) || line.endsWith(`--${name}`))
    expect(lines, name).toHaveLength(1)
    expect(lines[0], name).toContain(option.help)
  }
  expect(stdout).toContain('  -h, --help  ')
  expect(stdout).not.toMatch(/emulator-lite ready/)
})

test('an unknown option prints one line pointing at --help and exits 2, without a stack trace', () => {
  for (const args of [['--frob'], ['--host'], ['stray'], ['--firestore-port', 'abc']]) {
    const { status, stdout, stderr } = run(...args)
    expect(status, args.join(' ')).toBe(2)
    expect(stdout, args.join(' ')).toBe('')
    expect(stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
    expect(stderr, args.join(' ')).toMatch(/^emulator-lite: .+ \(see --help\)\n$/)
  }
  expect(run('--frob').stderr).toBe('emulator-lite: unknown option --frob (see --help)\n')
})

test('at start the CLI says what the access log keeps: every entry by default, or the days set', async () => {
  const ports = ['--firestore-port', '0', '--storage-port', '0', '--auth-port', '0', '--admin-port', '0']
  for (const [extra, said] of [
    [[], 'emulator-lite access log: keeps every entry (set --access-log-retention-days'],
    [['--access-log-retention-days', '400'], 'emulator-lite access log: keeps 400 days'],
  ] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'cli-retention-'))
    const { child, output } = await startCliProcess([...ports, '--data', dir, ...extra])
    try {
      expect(output()).toContain(said)
    } finally {
      await new Promise((resolve) => {
        child.once('exit', resolve)
        child.kill('SIGTERM')
      })
      rmSync(dir, { recursive: true, force: true })
    }
  }
})

const stop = (child: ChildProcess) =>
  new Promise((resolve) => {
    child.once('exit', resolve)
    child.kill('SIGTERM')
  })

test('a start whose port another process took meanwhile is tried again on new ports, and says why when it gives up', async () => {
  const taken = createServer()
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
  const takenPort = (taken.address() as { port: number }).port
  const dir = mkdtempSync(join(tmpdir(), 'cli-ports-'))
  const rest = ['--storage-port', '0', '--auth-port', '0', '--admin-port', '0', '--data', dir]
  try {
    const asked: number[] = []
    const started = await startCliOnFreePorts(['firestore'], (ports) => {
      // The first start gets the port taken, as when another test's connection got there first.
      asked.push(asked.length === 0 ? takenPort : ports.firestore)
      return ['--firestore-port', String(asked.at(-1)), ...rest]
    })
    await stop(started.child)
    expect(asked).toHaveLength(2)
    expect(started.args).toContain(String(asked[1]))
    await expect(
      startCliOnFreePorts(['firestore'], () => ['--firestore-port', String(takenPort), ...rest]),
    ).rejects.toThrow(`Port ${takenPort} is already in use (FIRESTORE_PORT)`)
  } finally {
    taken.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
