// `make bench` (seed part): seed time into a fresh project on a throwaway native stack (the real
// Auth emulator + emulator-lite), then the time of a second, no-op run. Target: first run < 10 s.
import { startTestStack } from '@bosted/stack/testing'
import { readSeedEnv } from './src/env.ts'
import { seed } from './src/seed-project.ts'

const stack = await startTestStack({ serveWeb: false, seed: false, build: false, api: false })
// firebase-admin finds the emulators through the environment only.
Object.assign(process.env, stack.env)
try {
  const env = readSeedEnv()
  const projectId = `demo-seed-bench-${Date.now().toString(36)}`
  const options = { ...env, projectId, bucket: `${projectId}.appspot.com` }
  const first = await seed({ ...options, log: (line) => console.log(`  ${line}`) })
  const second = await seed(options)
  const written = second.steps.reduce((sum, step) => sum + step.written, 0)
  console.log(`seed into a fresh project: ${first.ms} ms (target < 10000 ms)`)
  console.log(`second run (no-op):        ${second.ms} ms, ${written} writes`)
} finally {
  await stack.stop()
}
