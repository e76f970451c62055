import { expect, test } from 'vitest'
import { readStackEnv } from './env.ts'
import { ADMIN_HOST, emulatorEnv, webConfigFor } from './stack.ts'

test('a stack served to other machines keeps the admin listener on loopback and names only public ports to browsers', () => {
  const env = readStackEnv({ STACK_HOST: '0.0.0.0', PUBLIC_HOST: 'bosted.kommune.dk', EMULATOR_ADMIN_PORT: '19098' })
  expect(ADMIN_HOST).toBe('127.0.0.1')
  const privileged = emulatorEnv(env)
  for (const name of ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_STORAGE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST'])
    expect(privileged[name], name).toBe('127.0.0.1:19098')
  const browsers = JSON.stringify(webConfigFor(env))
  expect(browsers).not.toContain('19098')
  expect(browsers).toContain('bosted.kommune.dk')
})
