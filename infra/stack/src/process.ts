import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import { dirname } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/** How a crashed service is brought back: 0.5 s, doubling to 30 s; back to 0.5 s after 60 s healthy. */
export type RestartPolicy = {
  initialDelayMs: number
  maxDelayMs: number
  /** A run that stayed up this long resets the delay and the count of crashes in a row. */
  healthyResetMs: number
  /** After this many crashes in a row the launcher says clearly that the service keeps crashing. */
  reportAfterCrashes: number
}

export const DEFAULT_RESTART: RestartPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  healthyResetMs: 60_000,
  reportAfterCrashes: 5,
}

export type ServiceSpec = {
  name: string
  command: string
  args: string[]
  cwd: string
  env?: NodeJS.ProcessEnv
  /** Polled until it answers 2xx. */
  healthUrl: string
  /**
   * Also ready on 503 `{status:'degraded'}` (the api while the backend stores nothing): the process
   * serves, and restarting it would not give the disk space back.
   */
  readyWhenDegraded?: boolean
  /** Where stdout/stderr go; echoed with a prefix when `echo` is set. */
  logFile: string
  echo?: boolean
  readyTimeoutMs?: number
  /** Restart the service when it exits on its own after it was ready; `false` leaves it down. */
  restart?: RestartPolicy | false
  /** The launcher's own lines about this service (restarts, log trouble); stderr by default. */
  report?: (line: string) => void
  /** Called after each launch (the first and every restart), e.g. to record the new pid. */
  onLaunch?: (child: ChildProcess) => void
}

/** What the stack passes through to every service it starts. */
export type Supervision = Pick<ServiceSpec, 'restart' | 'report' | 'onLaunch'>

export type RunningService = {
  name: string
  /** The current process (a new one after each restart). */
  readonly child: ChildProcess
  /** How often it was restarted after a crash. */
  readonly restarts: number
  stop(): Promise<void>
}

/**
 * A service's log file that never takes the launcher down: a failed write (ENOSPC on a full disk,
 * EIO, a removed directory) is reported once, the file is closed and the output dropped; the next
 * write after `retryMs` opens the file again, and says so when it works.
 */
export class ServiceLog {
  #stream: WriteStream | null = null
  #brokenSince = 0
  #reported = false

  constructor(
    readonly path: string,
    readonly name: string,
    readonly report: (line: string) => void,
    readonly retryMs = 30_000,
  ) {
    this.#open()
  }

  write(chunk: Buffer | string): void {
    if (!this.#stream) {
      if (Date.now() - this.#brokenSince < this.retryMs) return
      this.#open()
      if (!this.#stream) return
    }
    this.#stream.write(chunk)
  }

  end(): void {
    this.#stream?.end()
    this.#stream = null
  }

  #open(): void {
    try {
      mkdirSync(dirname(this.path), { recursive: true })
      const stream = createWriteStream(this.path, { flags: 'a' })
      stream.on('error', (error: NodeJS.ErrnoException) => this.#fail(stream, error))
      if (this.#reported) {
        stream.once('open', () => {
          if (this.#stream === stream && this.#reported) {
            this.#reported = false
            this.report(`${this.name}: writing its log ${this.path} again`)
          }
        })
      }
      this.#stream = stream
    } catch (error) {
      this.#fail(null, error as NodeJS.ErrnoException)
    }
  }

  #fail(stream: WriteStream | null, error: NodeJS.ErrnoException): void {
    if (stream && stream !== this.#stream) return
    this.#stream = null
    this.#brokenSince = Date.now()
    stream?.destroy()
    if (this.#reported) return
    this.#reported = true
    this.report(
      `${this.name}: cannot write its log ${this.path} (${error.code ?? error.message}); its output is dropped until that works again, the service keeps running`,
    )
  }
}

const defaultReport = (line: string) => console.error(line)

/**
 * Starts a service in its own process group (so stopping it also stops the children it forks, such
 * as firebase-tools' emulator workers) and waits until its health URL answers. Once ready, a crash
 * (any exit the launcher did not ask for) restarts it with backoff, unless `restart` is `false`.
 */
export async function startService(spec: ServiceSpec): Promise<RunningService> {
  const report = spec.report ?? defaultReport
  const policy = spec.restart === false ? null : (spec.restart ?? DEFAULT_RESTART)
  const log = new ServiceLog(spec.logFile, spec.name, report)
  let recent = ''
  let stopping = false
  let restarts = 0
  let crashesInARow = 0
  let delayMs = policy?.initialDelayMs ?? 0
  const wakeUp = new AbortController()

  const launch = () => {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    // A spawn failure (missing binary) arrives as 'error' and then 'exit'; never as an uncaught error.
    child.on('error', (error) => {
      recent = `${recent}\n${error.message}`.slice(-4000)
    })
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        log.write(chunk)
        recent = (recent + chunk.toString()).slice(-4000)
        if (spec.echo) {
          for (const line of chunk.toString().split('\n')) if (line.trim()) console.log(`[${spec.name}] ${line}`)
        }
      })
    }
    spec.onLaunch?.(child)
    return { child, exited }
  }

  let current = launch()

  const waitUntilHealthy = async (timeoutMs: number): Promise<'healthy' | 'exited' | 'timeout'> => {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline && !stopping) {
      if (current.child.exitCode !== null || current.child.signalCode !== null) return 'exited'
      if (await isHealthy(spec.healthUrl, spec.readyWhenDegraded)) return 'healthy'
      await sleep(150)
    }
    return 'timeout'
  }

  const supervise = (launched: { child: ChildProcess; exited: Promise<void> }, startedAt: number) => {
    launched.child.once('exit', (code, signal) => {
      if (stopping || !policy) return
      // What the dead leader forked (nginx workers, emulator workers) must not keep the port.
      signalGroup(launched.child, 'SIGKILL')
      if (Date.now() - startedAt >= policy.healthyResetMs) {
        crashesInARow = 0
        delayMs = policy.initialDelayMs
      }
      crashesInARow += 1
      const how = signal ? `signal ${signal}` : `code ${code}`
      report(`${spec.name} exited (${how}); restarting in ${formatDelay(delayMs)} (restart ${restarts + 1})`)
      if (crashesInARow === policy.reportAfterCrashes) {
        const tail = recent.trim().split('\n').slice(-5).join('\n  ')
        report(
          `${spec.name} keeps crashing: ${crashesInARow} times in a row, each within ${formatDelay(policy.healthyResetMs)} of starting. Still retrying every ${formatDelay(policy.maxDelayMs)} at most. Its log: ${spec.logFile}\n  ${tail}`,
        )
      }
      void restartAfter(delayMs)
      delayMs = Math.min(delayMs * 2, policy.maxDelayMs)
    })
  }

  const restartAfter = async (ms: number) => {
    await sleep(ms, undefined, { signal: wakeUp.signal }).catch(() => {})
    if (stopping) return
    restarts += 1
    recent = ''
    current = launch()
    const startedAt = Date.now()
    supervise(current, startedAt)
    const outcome = await waitUntilHealthy(spec.readyTimeoutMs ?? 60_000)
    if (outcome === 'healthy') report(`${spec.name} is back (pid ${current.child.pid}, restart ${restarts})`)
    else if (outcome === 'timeout' && !stopping) {
      // Hung rather than crashed: treat it as a crash so the backoff goes on.
      signalGroup(current.child, 'SIGKILL')
    }
  }

  const running: RunningService = {
    name: spec.name,
    get child() {
      return current.child
    },
    get restarts() {
      return restarts
    },
    async stop() {
      stopping = true
      wakeUp.abort()
      const { child, exited } = current
      if (child.exitCode === null && child.signalCode === null) {
        signalGroup(child, 'SIGTERM')
        const stopped = await Promise.race([exited.then(() => true), sleep(8000).then(() => false)])
        if (!stopped) {
          signalGroup(child, 'SIGKILL')
          await exited
        }
      }
      // Workers in the group may outlive the leader briefly; make sure none remain.
      signalGroup(child, 'SIGKILL')
      log.end()
    },
  }

  const outcome = await waitUntilHealthy(spec.readyTimeoutMs ?? 60_000)
  if (outcome === 'exited') {
    stopping = true
    log.end()
    throw new Error(`${spec.name} exited with code ${current.child.exitCode} before it was ready:\n${recent.trim()}`)
  }
  if (outcome === 'timeout') {
    await running.stop()
    throw new Error(`${spec.name} was not healthy at ${spec.healthUrl} within ${spec.readyTimeoutMs ?? 60_000} ms`)
  }
  supervise(current, Date.now())
  return running
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // The group is already gone.
  }
}

export async function isHealthy(url: string, acceptDegraded = false): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3000) })
    if (acceptDegraded && response.status === 503) {
      const body = (await response.json().catch(() => null)) as { status?: unknown } | null
      return body?.status === 'degraded'
    }
    await response.body?.cancel()
    return response.ok
  } catch {
    return false
  }
}
