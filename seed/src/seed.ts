// `make seed` / `make start`: seeds the demo data into the project named by the environment.
//   --if-empty            do nothing when the project already has data (make start)
//   --reset               wipe the project's Firestore, Auth users and Storage first (emulators only)
//   --today=YYYY-MM-DD    pretend it is another day (dates are relative to today)
//   --allow-real-project  allow seeding without emulators (demo accounts with a known password!)
//   --allow-pilot         seed a project marked as a pilot: a throwaway pilot under test only
//                         (make test-e2e-containers TARGET=pilot); never a municipality's pilot
import { parseArgs } from 'node:util'
import { readSeedEnv } from './env.ts'
import { isDay } from './lib/dates.ts'
import { seed } from './seed-project.ts'

try {
  const { values } = parseArgs({
    options: {
      'if-empty': { type: 'boolean', default: false },
      reset: { type: 'boolean', default: false },
      today: { type: 'string' },
      'allow-real-project': { type: 'boolean', default: false },
      'allow-pilot': { type: 'boolean', default: false },
    },
  })
  if (values.today !== undefined && !isDay(values.today)) {
    throw new Error(`--today must be a calendar day YYYY-MM-DD, not '${values.today}'`)
  }
  const env = readSeedEnv()
  await seed({
    ...env,
    reset: values.reset,
    ifEmpty: values['if-empty'],
    allowRealProject: values['allow-real-project'],
    allowPilot: values['allow-pilot'],
    today: values.today,
    log: (line) => console.log(line),
  })
} catch (error) {
  console.error(`seed failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
