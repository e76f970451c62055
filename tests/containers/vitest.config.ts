import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { probeDockerEngine } from './docker-engine.ts'

// `make test-containers`: QA's end-to-end smoke against the Compose stack, plus the checks of the
// images' entrypoints and of check-docker that need no engine. Without a Docker engine the Compose
// suite is skipped, and said so in one line here, before anything runs.
export default defineConfig(async () => {
  const engine = await probeDockerEngine()
  if (!engine.available) {
    console.warn(`containers: SKIPPING the Compose suite: no Docker engine answered (${engine.reason}).`)
  }
  return {
    test: {
      name: 'containers',
      root: fileURLToPath(new URL('../..', import.meta.url)),
      include: ['tests/containers/**/*.test.ts'],
      provide: { dockerEngine: engine },
      fileParallelism: false,
      // The first `docker compose up --build` downloads base images, npm packages and the emulators' JARs.
      hookTimeout: 30 * 60_000,
      testTimeout: 5 * 60_000,
    },
  }
})
