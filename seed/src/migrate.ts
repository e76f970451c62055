// `make migrate`: runs every data migration (each idempotent) against the project named by the environment.
//   --pending   only those the project has not had (recorded in bosted/schema), each once; refuses data a
//               newer version migrated (the pilot's `migrate` service runs this at every start)
//   --pilot     with --pending: mark the project as a pilot (the demo seed then refuses it)
import { parseArgs } from 'node:util'
import { readSeedEnv } from './env.ts'
import { migrate, migratePending } from './migrate-project.ts'

try {
  const { values } = parseArgs({
    options: { pending: { type: 'boolean', default: false }, pilot: { type: 'boolean', default: false } },
  })
  const env = readSeedEnv()
  const log = (line: string) => console.log(line)
  if (values.pending) await migratePending({ ...env, pilot: values.pilot, log })
  else await migrate({ ...env, log })
} catch (error) {
  console.error(`migrate failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
