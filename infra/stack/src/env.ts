import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEMO_PROJECT_ID, DEMO_STORAGE_BUCKET } from '@bosted/domain'
import { z } from 'zod'

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..')

const port = (fallback: number) => z.coerce.number().int().min(1).max(65_535).default(fallback)

/** Every variable the native stack reads; each has a default so `make start` needs none. */
const StackEnvSchema = z.object({
  STACK_HOST: z.string().default('127.0.0.1'),
  /** Host the browser uses to reach the emulators (another machine's browser needs the server's name). */
  PUBLIC_HOST: z.string().optional(),
  APP_PORT: port(8000),
  API_PORT: port(3001),
  AUTH_PORT: port(9099),
  FIRESTORE_PORT: port(8080),
  STORAGE_PORT: port(9199),
  /** emulator-lite's privileged listener (Auth, Firestore, Storage) for the api and the seed; never for browsers. */
  EMULATOR_ADMIN_PORT: port(9098),
  EMULATOR_HUB_PORT: port(4400),
  EMULATOR_LOGGING_PORT: port(4500),
  FIREBASE_PROJECT_ID: z.string().default(DEMO_PROJECT_ID),
  FIREBASE_STORAGE_BUCKET: z.string().default(DEMO_STORAGE_BUCKET),
  DATA_DIR: z.string().default(resolve(REPO_ROOT, '.data')),
  WEB_SERVER: z.enum(['auto', 'nginx', 'node']).default('auto'),
  /** `lite`: emulator-lite's durable Auth; `official`: firebase-tools' Auth emulator, for comparison. */
  AUTH_EMULATOR: z.enum(['lite', 'official']).default('lite'),
})
export type StackEnv = z.infer<typeof StackEnvSchema>

export function readStackEnv(source: NodeJS.ProcessEnv = process.env): StackEnv {
  const result = StackEnvSchema.safeParse(source)
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    throw new Error(`Invalid environment:\n  ${problems.join('\n  ')}`)
  }
  return result.data
}
