import { z } from 'zod'

const host = z
  .string()
  .regex(/^[^/:]+:\d+$/, 'expected host:port without a protocol')
  .optional()
  .or(z.literal('').transform(() => undefined))

/** Every variable the seed and the migrations read (the same ones `make start` passes). */
const SeedEnvSchema = z
  .object({
    FIREBASE_PROJECT_ID: z.string().min(1).optional(),
    GCLOUD_PROJECT: z.string().min(1).optional(),
    FIREBASE_STORAGE_BUCKET: z.string().min(1).optional(),
    FIREBASE_AUTH_EMULATOR_HOST: host,
    FIRESTORE_EMULATOR_HOST: host,
    FIREBASE_STORAGE_EMULATOR_HOST: host,
    /** Host name browsers use to reach the Storage emulator when it is not the bind host (a pilot served to others). */
    PUBLIC_HOST: z.string().min(1).optional(),
    /**
     * `host:port` browsers download Storage objects from, when FIREBASE_STORAGE_EMULATOR_HOST is a
     * server-only address (emulator-lite's admin listener, which browsers are never handed).
     */
    STORAGE_PUBLIC_HOST: host,
    /**
     * The origin browsers download Storage objects from when it is an HTTPS origin with Storage under
     * its own paths (a pilot's one origin: `https://host:port`); wins over STORAGE_PUBLIC_HOST.
     */
    STORAGE_PUBLIC_ORIGIN: z
      .string()
      .regex(/^https?:\/\/[^/]+$/, 'expected an origin such as https://host:port')
      .optional()
      .or(z.literal('').transform(() => undefined)),
  })
  .transform((env, ctx) => {
    const projectId = env.FIREBASE_PROJECT_ID ?? env.GCLOUD_PROJECT
    if (!projectId) {
      ctx.addIssue({ code: 'custom', message: 'FIREBASE_PROJECT_ID (or GCLOUD_PROJECT) is required' })
      return z.NEVER
    }
    return {
      projectId,
      bucket: env.FIREBASE_STORAGE_BUCKET ?? `${projectId}.appspot.com`,
      emulators: {
        auth: env.FIREBASE_AUTH_EMULATOR_HOST,
        firestore: env.FIRESTORE_EMULATOR_HOST,
        storage: env.FIREBASE_STORAGE_EMULATOR_HOST,
      },
      publicHost: env.PUBLIC_HOST,
      storagePublicHost: env.STORAGE_PUBLIC_HOST,
      storagePublicOrigin: env.STORAGE_PUBLIC_ORIGIN,
    }
  })
export type SeedEnv = z.infer<typeof SeedEnvSchema>
export type EmulatorHosts = SeedEnv['emulators']

const EmulatorHostsSchema = z.object({
  FIREBASE_AUTH_EMULATOR_HOST: host,
  FIRESTORE_EMULATOR_HOST: host,
  FIREBASE_STORAGE_EMULATOR_HOST: host,
})

/**
 * The emulator hosts firebase-admin itself reads from the environment (it has no other way to be
 * pointed at the Auth and Storage emulators), so in-process callers of seed() set them there too.
 */
export function readEmulatorHosts(source: NodeJS.ProcessEnv = process.env): EmulatorHosts {
  const env = EmulatorHostsSchema.parse(source)
  return {
    auth: env.FIREBASE_AUTH_EMULATOR_HOST,
    firestore: env.FIRESTORE_EMULATOR_HOST,
    storage: env.FIREBASE_STORAGE_EMULATOR_HOST,
  }
}

export function readSeedEnv(source: NodeJS.ProcessEnv = process.env): SeedEnv {
  const result = SeedEnvSchema.safeParse(source)
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`)
    throw new Error(`Invalid environment:\n  ${problems.join('\n  ')}`)
  }
  return result.data
}
