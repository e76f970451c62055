import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { freePort } from '@bosted/stack/ports'

/** The Debian package that brings the emulator (with `google-cloud-cli` and a Java runtime, 17 or later). */
export const OFFICIAL_PACKAGES = 'google-cloud-cli google-cloud-cli-firestore-emulator openjdk-17-jre-headless'

export type OfficialFirestore = {
  host: string
  port: number
  /** The process group: gcloud (Python), the emulator's shell script and its JVM. */
  pid: number
  /** Resident memory of the whole group (the JVM is nearly all of it), in bytes. */
  rssBytes(): number
  close(): Promise<void>
}

const running = new Set<ChildProcess>()
// A test run that dies must not leave JVMs behind: kill every group this process started.
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL')
})

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal)
  } catch {}
}

function findGcloud(): string {
  for (const candidate of [process.env.GCLOUD_BIN, '/usr/bin/gcloud', '/usr/lib/google-cloud-sdk/bin/gcloud']) {
    if (candidate && existsSync(candidate)) return candidate
  }
  throw new Error(
    `The official Firestore emulator is not installed (no gcloud). Install it: apt-get install -y ${OFFICIAL_PACKAGES}`,
  )
}

/**
 * Starts Google's Cloud Firestore emulator (`gcloud emulators firestore start`) on a free loopback
 * port and resolves once `GET /` answers `Ok`. With `rules`, it enforces that file (production's rules
 * engine); without, it allows everything. Fails loudly (with the emulator's output) when it does not
 * come up within `timeoutMs`: a parity run never skips silently.
 */
export async function startOfficialFirestore(
  options: { rules?: string; port?: number; timeoutMs?: number } = {},
): Promise<OfficialFirestore> {
  const gcloud = findGcloud()
  const port = options.port ?? (await freePort())
  const host = `127.0.0.1:${port}`
  const args = ['emulators', 'firestore', 'start', `--host-port=${host}`, '--quiet']
  if (options.rules) args.push(`--rules=${options.rules}`)
  const child = spawn(gcloud, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  // The 'exit' hook does not run when this process is killed (a test runner's timeout, kill -9): a
  // watchdog ends the emulator's process group once this process is gone.
  const watchdog = spawn(
    'sh',
    ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill -9 -${child.pid} 2>/dev/null`],
    { detached: true, stdio: 'ignore' },
  )
  watchdog.unref()
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  let exited: number | null | undefined
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code
      running.delete(child)
      resolve()
    }),
  )
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  for (;;) {
    if (exited !== undefined)
      throw new Error(`The official Firestore emulator exited (code ${exited}) before it was ready:\n${output}`)
    if (Date.now() > deadline) {
      killGroup(child, 'SIGKILL')
      watchdog.kill('SIGKILL')
      throw new Error(`The official Firestore emulator was not ready on ${host} in time:\n${output}`)
    }
    try {
      const response = await fetch(`http://${host}/`)
      if (response.ok && (await response.text()).trim() === 'Ok') break
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const pid = child.pid as number
  return {
    host,
    port,
    pid,
    rssBytes() {
      const text = execFileSync('ps', ['-o', 'rss=', '-s', String(pid)], { encoding: 'utf8' })
      return text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .reduce((sum, line) => sum + Number(line.trim()) * 1024, 0)
    },
    async close() {
      watchdog.kill('SIGKILL')
      if (exited !== undefined) return
      killGroup(child, 'SIGTERM')
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 3000)
      await exit
      clearTimeout(timer)
      // The JVM may outlive the gcloud wrapper that was the group's leader.
      killGroup(child, 'SIGKILL')
    },
  }
}
