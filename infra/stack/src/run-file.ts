import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/**
 * `DATA_DIR/run/<APP_PORT>/processes.json`: who is running this stack. The launcher writes it after
 * every (re)start of a service and removes it when it stops cleanly. A file left behind means the
 * launcher died (kill -9, a crash): the next `make start` reads it to find that run's orphans.
 *
 * A process is named by pid AND start time, so a pid the system has since given to an unrelated
 * process is never signalled.
 */
export type RunRecord = {
  launcher: ProcessIdentity
  services: (ProcessIdentity & { name: string })[]
}
export type ProcessIdentity = { pid: number; startTime: string | null }

export const RUN_FILE = 'processes.json'

export function runFilePath(runDir: string): string {
  return join(runDir, RUN_FILE)
}

export function writeRunFile(runDir: string, record: RunRecord): void {
  mkdirSync(runDir, { recursive: true })
  const path = runFilePath(runDir)
  try {
    writeFileSync(`${path}.tmp`, `${JSON.stringify(record, null, 2)}\n`)
    renameSync(`${path}.tmp`, path)
  } catch (error) {
    // A full disk must not stop the stack; the next start then finds no file and falls back to the
    // port check, which names the port.
    console.error(`cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
  }
}

export function removeRunFile(runDir: string): void {
  rmSync(runFilePath(runDir), { force: true })
}

export function readRunFile(runDir: string): RunRecord | null {
  const path = runFilePath(runDir)
  if (!existsSync(path)) return null
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RunRecord
  } catch {
    return null
  }
}

/** When `pid` started (from /proc, or `ps` where there is none); null when it is not running. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may contain spaces) in parentheses; starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    if (existsSync('/proc/self/stat')) return null
  }
  try {
    return execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' }).trim() || null
  } catch {
    return null
  }
}

export function identify(pid: number): ProcessIdentity {
  return { pid, startTime: processStartTime(pid) }
}

/** The same process as recorded (not merely the same pid). */
export function isAlive(identity: ProcessIdentity): boolean {
  const startTime = processStartTime(identity.pid)
  return startTime !== null && (identity.startTime === null || startTime === identity.startTime)
}

function groupExists(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export type PreviousRun =
  | { state: 'none' }
  /** The launcher of that run is still running: this is a second `make start`. */
  | { state: 'running'; launcher: number }
  | { state: 'orphans'; orphans: { name: string; pid: number }[] }

/** What the run file in `runDir` says about a previous run, checked against the live processes. */
export function inspectPreviousRun(runDir: string): PreviousRun {
  const record = readRunFile(runDir)
  if (!record) return { state: 'none' }
  if (record.launcher.pid !== process.pid && isAlive(record.launcher)) {
    return { state: 'running', launcher: record.launcher.pid }
  }
  // Each service ran as the leader of its own process group; a dead leader's workers may remain.
  const orphans = record.services
    .filter((service) => isAlive(service) || (processStartTime(service.pid) === null && groupExists(service.pid)))
    .map(({ name, pid }) => ({ name, pid }))
  return orphans.length > 0 ? { state: 'orphans', orphans } : { state: 'none' }
}

export class StackAlreadyRunningError extends Error {
  constructor(readonly launcher: number) {
    super(`Bosted is already running from another make start (pid ${launcher}). Stop it with: kill ${launcher}`)
    this.name = 'StackAlreadyRunningError'
  }
}

/**
 * Before a start: stops what a previous run that died left behind (its services' process groups,
 * SIGTERM then SIGKILL after 5 s) and says so in one line; refuses when that run's launcher still
 * lives. Returns the pids it stopped.
 */
export async function reclaimPreviousRun(runDir: string, log: (line: string) => void): Promise<number[]> {
  const previous = inspectPreviousRun(runDir)
  if (previous.state === 'running') throw new StackAlreadyRunningError(previous.launcher)
  if (previous.state === 'none') {
    removeRunFile(runDir)
    return []
  }
  const signalAll = (signal: NodeJS.Signals) => {
    for (const { pid } of previous.orphans) {
      try {
        process.kill(-pid, signal)
      } catch {
        // Gone already.
      }
    }
  }
  signalAll('SIGTERM')
  const deadline = Date.now() + 5_000
  while (Date.now() < deadline && previous.orphans.some(({ pid }) => groupExists(pid))) await sleep(100)
  signalAll('SIGKILL')
  while (previous.orphans.some(({ pid }) => groupExists(pid))) await sleep(50)
  removeRunFile(runDir)
  log(
    `stopped ${previous.orphans.length} process${previous.orphans.length === 1 ? '' : 'es'} left over from a previous run that died (${previous.orphans.map(({ name, pid }) => `${name} pid ${pid}`).join(', ')})`,
  )
  return previous.orphans.map(({ pid }) => pid)
}
