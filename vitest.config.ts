import { defineConfig } from 'vitest/config'

// Layers: `unit` (no processes, mocks allowed) and `integration` (real Auth emulator and
// emulator-lite started once by the global setup on free ports; files pick their own project id).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{domain,api,seed,infra/emulator-lite,infra/stack}/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.int.test.ts', '**/*.parity.test.ts'],
        },
      },
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          root: './web',
          environment: 'happy-dom',
          include: ['src/**/*.test.{ts,tsx}', 'service-worker/**/*.test.ts', 'bench/**/*.test.ts'],
          // The web's *.int.test.ts run in the integration project, against emulator-lite with rules.
          exclude: ['**/node_modules/**', 'src/**/*.int.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['./tests/support/integration-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // As Playwright's e2e: on CI's busy 2-core machine a test gets one more try; a test that
          // fails twice fails the run, and make test's summary names every failed test.
          retry: process.env.CI ? 1 : 0,
        },
      },
      {
        // emulator-lite against Google's Cloud Firestore emulator (gcloud, Java), which each file
        // starts itself: the access matrix on production's rules engine, and the differential runs.
        test: {
          name: 'parity',
          include: ['**/*.parity.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
