import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { ACCESS_CLASSIFIER_MODULE } from '@bosted/domain/access-classifier'

const CLI = join(import.meta.dirname, '../src/cli.ts')
/** The classifier the stack injects (Bosted's persons' data), so these processes log what the app's would. */
const CLASSIFIER = ['--access-classifier', ACCESS_CLASSIFIER_MODULE]

/**
 * Runs the emulator-lite CLI as its own process (so a test can `kill -9` it) and resolves once it
 * printed `emulator-lite ready`; `output()` is everything it printed so far.
 */
export async function startCliProcess(args: string[]): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...CLASSIFIER, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  while (!output.includes('emulator-lite ready')) {
    if (child.exitCode !== null) throw new Error(`emulator-lite exited: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { child, output: () => output }
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
