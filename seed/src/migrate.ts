// `make migrate`: runs every data migration (each idempotent) against the project named by the environment.
import { readSeedEnv } from './env.ts'
import { migrate } from './migrate-project.ts'

try {
  const env = readSeedEnv()
  await migrate({ ...env, log: (line) => console.log(line) })
} catch (error) {
  console.error(`migrate failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
