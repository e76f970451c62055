// Issue 29 finding 4 in the web: after the account's free failures, emulator-lite's Auth answers
// TOO_MANY_ATTEMPTS_TRY_LATER (docs/decisions/0021-bounds.md) and the sign-in page's own code turns
// it into the Danish message, the right password included. Real SDK, real emulator-lite.
import { startEmulatorLite } from '@bosted/emulator-lite'
import { deleteApp, initializeApp } from 'firebase/app'
import { connectAuthEmulator, initializeAuth, inMemoryPersistence } from 'firebase/auth'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import type { Firebase } from '../../../lib/firebase.ts'
import { signIn, signInErrorMessage } from './sign-in.ts'

const firebase: { current: Firebase | null } = { current: null }
vi.mock('../../../lib/firebase.ts', () => ({ getFirebase: () => firebase.current }))

let emulator: Awaited<ReturnType<typeof startEmulatorLite>>

beforeAll(async () => {
  // The throttle's clock stands still: the lock cannot pass while the test runs, however slow.
  const frozen = Date.now()
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    inMemory: true,
    signInThrottle: { now: () => frozen },
  })
  const app = initializeApp({ apiKey: 'fake-api-key', projectId: 'demo-project' }, 'sign-in-throttle')
  const auth = initializeAuth(app, { persistence: inMemoryPersistence })
  connectAuthEmulator(auth, `http://127.0.0.1:${emulator.authPort}`, { disableWarnings: true })
  firebase.current = { app, auth }
  const created = await fetch(
    `http://127.0.0.1:${emulator.authPort}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'laast@demo.dk', password: 'demo1234' }),
    },
  )
  expect(created.status).toBe(200)
})

afterAll(async () => {
  if (firebase.current) await deleteApp(firebase.current.app)
  await emulator.close()
})

const messageOf = (promise: Promise<unknown>) => promise.then(() => 'ok', signInErrorMessage)

test('a locked account shows "For mange forsøg" in Danish, even for the right password', async () => {
  for (let failure = 1; failure <= 6; failure++) {
    expect(await messageOf(signIn('laast@demo.dk', `forkert-${failure}`))).toBe('Forkert email eller adgangskode.')
  }
  expect(await messageOf(signIn('laast@demo.dk', 'forkert-7'))).toBe('For mange forsøg. Vent lidt, og prøv igen.')
  expect(await messageOf(signIn('laast@demo.dk', 'demo1234'))).toBe('For mange forsøg. Vent lidt, og prøv igen.')
})
