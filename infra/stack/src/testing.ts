import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readStackEnv } from './env.ts'
import { freePort } from './ports.ts'
import { emulatorEnv, type Stack, type StackOptions, startStack } from './stack.ts'

/**
 * Starts a throwaway stack on free ports with its data in a temporary directory; used by the
 * integration global setup (emulators only) and the end-to-end suite (everything).
 */
export async function startTestStack(
  parts: Pick<StackOptions, 'serveWeb' | 'seed' | 'build' | 'api'>,
): Promise<Stack & { env: NodeJS.ProcessEnv; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosted-stack-'))
  const ports = {
    APP_PORT: await freePort(),
    API_PORT: await freePort(),
    AUTH_PORT: await freePort(),
    FIRESTORE_PORT: await freePort(),
    STORAGE_PORT: await freePort(),
    EMULATOR_ADMIN_PORT: await freePort(),
    EMULATOR_HUB_PORT: await freePort(),
    EMULATOR_LOGGING_PORT: await freePort(),
  }
  const env = readStackEnv({
    ...Object.fromEntries(Object.entries(ports).map(([key, value]) => [key, String(value)])),
    DATA_DIR: dataDir,
    WEB_SERVER: process.env.WEB_SERVER,
    AUTH_EMULATOR: process.env.AUTH_EMULATOR,
  })
  const stack = await startStack({ env, persist: false, echo: false, log: () => {}, ...parts })
  return {
    ...stack,
    env: emulatorEnv(env),
    dataDir,
    async stop() {
      await stack.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
