import { PASSWORD_POLICIES, SESSION_COOKIE_MAX_AGE_MS } from '@bosted/domain'
import { z } from 'zod'
import { readServiceAccount } from './lib/custom-token.ts'
import type { AppConfig } from './lib/types.ts'

const port = z.coerce.number().int().min(1).max(65_535)
const positiveInt = z.coerce.number().int().min(0)
const origins = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url()))

/** Every variable the api reads. The emulator hosts are read by firebase-admin itself as well. */
const EnvSchema = z
  .object({
    FIREBASE_PROJECT_ID: z.string().min(1),
    FIREBASE_STORAGE_BUCKET: z.string().min(1).optional(),
    FIREBASE_AUTH_EMULATOR_HOST: z.string().min(1).optional(),
    FIRESTORE_EMULATOR_HOST: z.string().min(1).optional(),
    /**
     * emulator-lite's service-account key file (its data directory's service-account.json): refresh
     * signs its custom tokens with it. Read in emulator mode only.
     */
    EMULATOR_SERVICE_ACCOUNT_FILE: z.string().min(1).optional(),
    /**
     * Emulator mode only: also believe unsigned (`alg: none`) tokens, for the official Auth emulator,
     * which signs nothing. Never in production, never with emulator-lite's Auth.
     */
    ACCEPT_UNSIGNED_TOKENS: z.enum(['true', 'false']).default('false'),
    /** The web app's API key; the refresh call exchanges a custom token through the Auth REST API with it. */
    FIREBASE_WEB_API_KEY: z.string().min(1).optional(),
    API_HOST: z.string().min(1).default('127.0.0.1'),
    API_PORT: port.default(3001),
    /** `auto`: Secure unless the request's host is localhost / 127.0.0.1 / [::1]. */
    COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
    /** Comma-separated origins allowed to send cookie-authenticated writes besides the api's own. */
    APP_ORIGIN: origins.default([]),
    /** Which peers may set X-Forwarded-For / X-Real-IP (the rate limit's client address). */
    TRUST_PROXY: z.enum(['loopback', 'all', 'none']).default('loopback'),
    /** Firebase accepts session cookies of 5 minutes to 2 weeks. */
    SESSION_MAX_AGE_MS: positiveInt
      .min(5 * 60 * 1000)
      .max(14 * 24 * 60 * 60 * 1000)
      .default(SESSION_COOKIE_MAX_AGE_MS),
    SESSION_CHECK_CACHE_MS: positiveInt.default(5_000),
    LOGIN_RATE_LIMIT_MAX: positiveInt.default(300),
    LOGIN_RATE_LIMIT_WINDOW_MS: positiveInt.default(60_000),
    LOGIN_ACCOUNT_LIMIT_MAX: positiveInt.default(10),
    /**
     * Which rules new passwords must pass (docs/decisions/0023-passwords.md): `pilot` (12 characters,
     * not the email, not a common one) or `demo` (the spec's 6). Default: `demo` against emulators
     * (the demo data's password is 8 characters), `pilot` against a real project. A pilot sets `pilot`.
     */
    PASSWORD_POLICY: z.enum(PASSWORD_POLICIES).optional(),
    /**
     * Set where an SMTP relay is configured: "Glemt adgangskode?" then offers a reset link by mail.
     * Empty means unset (Compose passes `${PILOT_SMTP_HOST:-}` through).
     */
    PILOT_SMTP_HOST: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value === '' ? undefined : value)),
  })
  .refine((env) => env.ACCEPT_UNSIGNED_TOKENS === 'false' || env.FIREBASE_AUTH_EMULATOR_HOST !== undefined, {
    path: ['ACCEPT_UNSIGNED_TOKENS'],
    message: "only with FIREBASE_AUTH_EMULATOR_HOST: production verifies every token against Google's keys",
  })
  .refine((env) => env.FIREBASE_AUTH_EMULATOR_HOST !== undefined || env.FIREBASE_WEB_API_KEY !== undefined, {
    path: ['FIREBASE_WEB_API_KEY'],
    message: 'required when FIREBASE_AUTH_EMULATOR_HOST is not set (POST /api/auth/refresh needs it)',
  })
export type Env = z.infer<typeof EnvSchema>

/** Parses the environment once; fails naming every missing or malformed variable. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(source)
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    throw new Error(`Invalid api environment:\n  ${problems.join('\n  ')}`)
  }
  return result.data
}

/** The app's settings from the parsed environment (index.ts; tests reuse it with their own Firebase). */
export function appConfigFromEnv(env: Env): AppConfig {
  return {
    cookieSecure: env.COOKIE_SECURE === 'auto' ? 'auto' : env.COOKIE_SECURE === 'true',
    appOrigins: env.APP_ORIGIN,
    trustProxy: env.TRUST_PROXY,
    sessionMaxAgeMs: env.SESSION_MAX_AGE_MS,
    sessionCheckCacheMs: env.SESSION_CHECK_CACHE_MS,
    loginRateLimit: { max: env.LOGIN_RATE_LIMIT_MAX, windowMs: env.LOGIN_RATE_LIMIT_WINDOW_MS },
    accountRateLimit: { max: env.LOGIN_ACCOUNT_LIMIT_MAX, windowMs: env.LOGIN_RATE_LIMIT_WINDOW_MS },
    bodyLimitBytes: 16 * 1024,
    identityToolkit: {
      emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST,
      apiKey: env.FIREBASE_WEB_API_KEY ?? 'demo-api-key',
    },
    acceptUnsignedTokens: env.ACCEPT_UNSIGNED_TOKENS === 'true',
    passwordPolicy: env.PASSWORD_POLICY ?? (env.FIREBASE_AUTH_EMULATOR_HOST ? 'demo' : 'pilot'),
    resetByMail: env.PILOT_SMTP_HOST !== undefined,
    emulatorServiceAccount:
      env.FIREBASE_AUTH_EMULATOR_HOST && env.EMULATOR_SERVICE_ACCOUNT_FILE
        ? readServiceAccount(env.EMULATOR_SERVICE_ACCOUNT_FILE)
        : undefined,
  }
}
