import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { ACCESS_CLASSIFIER_MODULE } from '@bosted/domain/access-classifier'
import { freePort } from '@bosted/stack/ports'

const CLI = join(import.meta.dirname, '../src/cli.ts')
/** The classifier the stack injects (Bosted's persons' data), so these processes log what the app's would. */
const CLASSIFIER = ['--access-classifier', ACCESS_CLASSIFIER_MODULE]

/**
 * Runs the emulator-lite CLI as its own process (so a test can `kill -9` it) and resolves once it
 * printed `emulator-lite ready`; `output()` is everything it printed so far.
 */
export async function startCliProcess(args: string[]): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...CLASSIFIER, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let errors = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  // Shown as before, and kept: a start that fails says why in its error.
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString()
    process.stderr.write(chunk)
  })
  while (!output.includes('emulator-lite ready')) {
    if (child.exitCode !== null) throw new Error(`emulator-lite exited: ${output}${errors}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { child, output: () => output }
}

/**
 * startCliProcess on ports from freePort(), one per name, with the arguments `argsFor` makes of them.
 * A port freePort() found free can still be taken before emulator-lite binds it (another test file
 * running beside this one may pick the same port), and emulator-lite then exits ("Port … is already
 * in use"). Such a start is tried again on new ports, three times at most; any other failure is
 * thrown at once.
 */
export async function startCliOnFreePorts<Name extends string>(
  names: readonly Name[],
  argsFor: (ports: Record<Name, number>) => string[],
): Promise<{ child: ChildProcess; output: () => string; ports: Record<Name, number>; args: string[] }> {
  for (let attempt = 1; ; attempt += 1) {
    const ports = {} as Record<Name, number>
    // One after another: ports asked for at once could be handed out twice.
    for (const name of names) ports[name] = await freePort()
    const args = argsFor(ports)
    try {
      return { ...(await startCliProcess(args)), ports, args }
    } catch (error) {
      if (attempt >= 3 || !(error as Error).message.includes('is already in use')) throw error
    }
  }
}

/** What `make audit-verify ARGS="--data DIR"` runs (without make's dependency check), to its end. */
export function auditVerify(dataDir: string) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../src/audit/verify-cli.ts'), ...CLASSIFIER, '--data', dataDir],
    {
      encoding: 'utf8',
    },
  )
}
