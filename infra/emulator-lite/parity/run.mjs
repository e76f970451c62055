// `make parity ARGS="--runs=N --seed=S"`: the differential (and the access matrix on the official
// emulator) for as long as asked. The bounded run of `make test` is the same with its defaults.
import { spawnSync } from 'node:child_process'

const root = new URL('../../..', import.meta.url).pathname
const env = { ...process.env }
const files = []
for (const arg of process.argv.slice(2)) {
  const [key, value] = arg.split('=')
  if (key === '--runs') env.PARITY_RUNS = value
  else if (key === '--seed') env.PARITY_SEED = value
  else if (key === '--verbose') env.PARITY_VERBOSE = '1'
  else if (!arg.startsWith('--')) files.push(arg)
  else {
    console.error(`unknown option ${arg} (use --runs=N, --seed=S, --verbose, or test files)`)
    process.exit(2)
  }
}
if (env.PARITY_SEED === undefined) env.PARITY_SEED = String(Date.now() % 2 ** 31)
console.log(`parity: runs=${env.PARITY_RUNS ?? 'default'} seed=${env.PARITY_SEED}`)
const run = spawnSync('npx', ['vitest', 'run', '--project', 'parity', ...files], { cwd: root, stdio: 'inherit', env })
process.exit(run.status ?? 1)
