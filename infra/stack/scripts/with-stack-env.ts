// Runs a script (seed, migrate) against the native stack's emulators, using the same ports and
// project as `make start` (and the same overrides).
import { spawnSync } from 'node:child_process'
import { REPO_ROOT, readStackEnv } from '../src/env.ts'
import { emulatorEnv } from '../src/stack.ts'

const [script, ...args] = process.argv.slice(2)
if (!script) {
  console.error('usage: with-stack-env.ts <script.ts> [args…]')
  process.exit(2)
}
const result = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
  env: { ...process.env, ...emulatorEnv(readStackEnv()) },
})
process.exit(result.status ?? 1)
