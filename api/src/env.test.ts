import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { appConfigFromEnv, readEnv } from './env.ts'

const emulators = {
  FIREBASE_PROJECT_ID: 'demo-bosted',
  FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
  FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080',
}

test('the stack environment parses with defaults for everything else', () => {
  const env = readEnv({ ...emulators, API_PORT: '4001', COOKIE_SECURE: 'false' })
  expect(env).toMatchObject({ API_HOST: '127.0.0.1', API_PORT: 4001, COOKIE_SECURE: 'false', APP_ORIGIN: [] })
  const config = appConfigFromEnv(env)
  expect(config.cookieSecure).toBe(false)
  expect(config.identityToolkit).toEqual({ emulatorHost: '127.0.0.1:9099', apiKey: 'demo-api-key' })
  expect(config.sessionMaxAgeMs).toBe(5 * 24 * 60 * 60 * 1000)
})

test('a missing project id or a bad port fails naming the variables', () => {
  expect(() => readEnv({ API_PORT: 'eighty' })).toThrow(
    /FIREBASE_PROJECT_ID[\s\S]*API_PORT|API_PORT[\s\S]*FIREBASE_PROJECT_ID/,
  )
})

test('production (no emulator) needs the web API key for refresh, and origins must be URLs', () => {
  expect(() => readEnv({ FIREBASE_PROJECT_ID: 'bosted-prod' })).toThrow(/FIREBASE_WEB_API_KEY/)
  const env = readEnv({
    FIREBASE_PROJECT_ID: 'bosted-prod',
    FIREBASE_WEB_API_KEY: 'key',
    APP_ORIGIN: 'https://a.dk, https://b.dk',
  })
  expect(env.APP_ORIGIN).toEqual(['https://a.dk', 'https://b.dk'])
  expect(appConfigFromEnv(env).cookieSecure).toBe('auto')
  expect(() => readEnv({ ...emulators, APP_ORIGIN: 'not a url' })).toThrow(/APP_ORIGIN/)
  expect(() => readEnv({ ...emulators, SESSION_MAX_AGE_MS: '1000' })).toThrow(/SESSION_MAX_AGE_MS/)
})

test("emulator mode reads emulator-lite's service-account file for refresh; production ignores it", () => {
  const dir = mkdtempSync(join(tmpdir(), 'env-test-'))
  try {
    const file = join(dir, 'service-account.json')
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const account = {
      type: 'service_account',
      project_id: 'demo-bosted',
      private_key_id: 'k1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: 'emulator-lite-admin@emulator-lite.iam.gserviceaccount.com',
    }
    writeFileSync(file, JSON.stringify(account))
    const config = appConfigFromEnv(readEnv({ ...emulators, EMULATOR_SERVICE_ACCOUNT_FILE: file }))
    expect(config.emulatorServiceAccount).toEqual(account)
    expect(appConfigFromEnv(readEnv(emulators)).emulatorServiceAccount).toBeUndefined()
    const production = { FIREBASE_PROJECT_ID: 'bosted-prod', FIREBASE_WEB_API_KEY: 'key' }
    expect(
      appConfigFromEnv(readEnv({ ...production, EMULATOR_SERVICE_ACCOUNT_FILE: file })).emulatorServiceAccount,
    ).toBeUndefined()
    expect(() =>
      appConfigFromEnv(readEnv({ ...emulators, EMULATOR_SERVICE_ACCOUNT_FILE: join(dir, 'missing.json') })),
    ).toThrow(/missing\.json/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('unsigned tokens can be accepted in emulator mode only, and are off by default', () => {
  expect(appConfigFromEnv(readEnv(emulators)).acceptUnsignedTokens).toBe(false)
  expect(appConfigFromEnv(readEnv({ ...emulators, ACCEPT_UNSIGNED_TOKENS: 'true' })).acceptUnsignedTokens).toBe(true)
  expect(() =>
    readEnv({ FIREBASE_PROJECT_ID: 'bosted-prod', FIREBASE_WEB_API_KEY: 'key', ACCEPT_UNSIGNED_TOKENS: 'true' }),
  ).toThrow(/ACCEPT_UNSIGNED_TOKENS/)
})

test('the password policy is the demo rule against emulators, the pilot rule in production, and what PASSWORD_POLICY says', () => {
  expect(appConfigFromEnv(readEnv(emulators)).passwordPolicy).toBe('demo')
  expect(appConfigFromEnv(readEnv({ ...emulators, PASSWORD_POLICY: 'pilot' })).passwordPolicy).toBe('pilot')
  const production = { FIREBASE_PROJECT_ID: 'bosted-prod', FIREBASE_WEB_API_KEY: 'key' }
  expect(appConfigFromEnv(readEnv(production)).passwordPolicy).toBe('pilot')
  expect(() => readEnv({ ...emulators, PASSWORD_POLICY: 'weak' })).toThrow(/PASSWORD_POLICY/)
  expect(appConfigFromEnv(readEnv(emulators)).resetByMail).toBe(false)
  expect(appConfigFromEnv(readEnv({ ...emulators, PILOT_SMTP_HOST: 'smtp.kommune.dk' })).resetByMail).toBe(true)
})
