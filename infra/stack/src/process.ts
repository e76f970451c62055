import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

export type ServiceSpec = {
  name: string
  command: string
  args: string[]
  cwd: string
  env?: NodeJS.ProcessEnv
  /** Polled until it answers 2xx. */
  healthUrl: string
  /** Where stdout/stderr go; echoed with a prefix when `echo` is set. */
  logFile: string
  echo?: boolean
  readyTimeoutMs?: number
}

export type RunningService = {
  name: string
  child: ChildProcess
  stop(): Promise<void>
}

/**
 * Starts a service in its own process group (so stopping it also stops the children it forks, such
 * as firebase-tools' emulator workers) and waits until its health URL answers.
 */
export async function startService(spec: ServiceSpec): Promise<RunningService> {
  mkdirSync(dirname(spec.logFile), { recursive: true })
  const log = createWriteStream(spec.logFile, { flags: 'a' })
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  let recent = ''
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      log.write(chunk)
      recent = (recent + chunk.toString()).slice(-4000)
      if (spec.echo) {
        for (const line of chunk.toString().split('\n')) if (line.trim()) console.log(`[${spec.name}] ${line}`)
      }
    })
  }
  const running: RunningService = {
    name: spec.name,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      signalGroup(child, 'SIGTERM')
      const stopped = await Promise.race([exited.then(() => true), sleep(8000).then(() => false)])
      if (!stopped) {
        signalGroup(child, 'SIGKILL')
        await exited
      }
      // Workers in the group may outlive the leader briefly; make sure none remain.
      signalGroup(child, 'SIGKILL')
      log.end()
    },
  }
  const deadline = Date.now() + (spec.readyTimeoutMs ?? 60_000)
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${spec.name} exited with code ${child.exitCode} before it was ready:\n${recent.trim()}`)
    }
    if (await isHealthy(spec.healthUrl)) return running
    await sleep(150)
  }
  await running.stop()
  throw new Error(`${spec.name} was not healthy at ${spec.healthUrl} within ${spec.readyTimeoutMs ?? 60_000} ms`)
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // The group is already gone.
  }
}

export async function isHealthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) })
    await response.body?.cancel()
    return response.ok
  } catch {
    return false
  }
}
