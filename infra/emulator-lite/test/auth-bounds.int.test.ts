// Issue 29 findings 4 and 9: password guesses are throttled per account with growing delays
// (TOO_MANY_ATTEMPTS_TRY_LATER → auth/too-many-requests), and a password that is set has at most
// 4,096 characters (docs/decisions/0021-bounds.md). The clock of the throttle is injected: no waiting.
import { PASSWORD_MAX_LENGTH } from '@bosted/domain/validation'
import { deleteApp, initializeApp } from 'firebase/app'
import {
  type Auth,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  initializeAuth,
  inMemoryPersistence,
  signInWithEmailAndPassword,
  updatePassword,
} from 'firebase/auth'
import { type App, deleteApp as deleteAdminApp, initializeApp as initializeAdminApp } from 'firebase-admin/app'
import { type Auth as AdminAuth, getAuth as getAdminAuth } from 'firebase-admin/auth'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { TOO_MANY_ATTEMPTS } from '../src/auth/operations.ts'
import { SignInThrottle } from '../src/auth/sign-in-throttle.ts'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

const PROJECT = 'demo-bounds-auth'
let clock = Date.parse('2026-01-01T08:00:00Z')
let emulator: EmulatorLite
let web: Auth
let admin: AdminAuth
let webApp: ReturnType<typeof initializeApp>
let adminApp: App

beforeAll(async () => {
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    inMemory: true,
    authProjectId: PROJECT,
    signInThrottle: { now: () => clock },
  })
  process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${emulator.adminPort}`
  webApp = initializeApp({ apiKey: 'fake-api-key', projectId: PROJECT }, 'bounds-auth-web')
  web = initializeAuth(webApp, { persistence: inMemoryPersistence })
  connectAuthEmulator(web, `http://127.0.0.1:${emulator.authPort}`, { disableWarnings: true })
  adminApp = initializeAdminApp({ projectId: PROJECT }, 'bounds-auth-admin')
  admin = getAdminAuth(adminApp)
})

afterAll(async () => {
  await deleteApp(webApp)
  await deleteAdminApp(adminApp)
  await emulator.close()
})

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
    return 'ok'
  } catch (error) {
    return String((error as { code?: unknown }).code)
  }
}

const signIn = (email: string, password: string) => codeOf(signInWithEmailAndPassword(web, email, password))

/** The raw Identity Toolkit answer to a password sign-in (the web SDK hides the envelope). */
async function rawSignIn(email: string, password: string) {
  const response = await fetch(
    `http://127.0.0.1:${emulator.authPort}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) },
  )
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

test('after 5 free failures an account is locked with growing delays; the right password is refused during a lock', async () => {
  await admin.createUser({ email: 'gaetter@example.dk', password: 'rigtig123' })
  for (let failure = 1; failure <= 5; failure++) {
    expect(await signIn('gaetter@example.dk', `forkert${failure}`)).toBe('auth/wrong-password')
  }
  // The sixth failure is still answered, and locks the account for 1 s.
  expect(await signIn('gaetter@example.dk', 'forkert6')).toBe('auth/wrong-password')
  expect(await signIn('gaetter@example.dk', 'forkert7')).toBe('auth/too-many-requests')
  expect(await signIn('gaetter@example.dk', 'rigtig123')).toBe('auth/too-many-requests')
  // Production's envelope: HTTP 400, the code and its explanation, no status.
  expect(await rawSignIn('gaetter@example.dk', 'rigtig123')).toEqual({
    status: 400,
    body: {
      error: {
        code: 400,
        message: TOO_MANY_ATTEMPTS,
        errors: [{ message: TOO_MANY_ATTEMPTS, reason: 'invalid', domain: 'global' }],
      },
    },
  })
  // Each further failure doubles the lock: 2 s after the seventh, so 1.5 s later it still holds.
  clock += 1000
  expect(await signIn('gaetter@example.dk', 'forkert7')).toBe('auth/wrong-password')
  clock += 1500
  expect(await signIn('gaetter@example.dk', 'rigtig123')).toBe('auth/too-many-requests')
  clock += 500
  // Another user of the same service is not affected.
  await admin.createUser({ email: 'kollega@example.dk', password: 'kollega123' })
  expect(await signIn('kollega@example.dk', 'kollega123')).toBe('ok')
  // Once the lock has passed the right password gets in, and the count starts over.
  expect(await signIn('gaetter@example.dk', 'rigtig123')).toBe('ok')
  for (let failure = 1; failure <= 5; failure++) {
    expect(await signIn('gaetter@example.dk', `forkert${failure}`)).toBe('auth/wrong-password')
  }
  expect(await signIn('gaetter@example.dk', 'rigtig123')).toBe('ok')
})

test('a new password restores a locked account at once, as the message promises', async () => {
  const user = await admin.createUser({ email: 'glemt@example.dk', password: 'rigtig123' })
  for (let failure = 1; failure <= 6; failure++) await signIn('glemt@example.dk', `forkert${failure}`)
  expect(await signIn('glemt@example.dk', 'rigtig123')).toBe('auth/too-many-requests')
  await admin.updateUser(user.uid, { password: 'ny-adgang1' })
  expect(await signIn('glemt@example.dk', 'ny-adgang1')).toBe('ok')
})

test('200 guesses in a burst meet the lock after 6: parallel guesses cannot slip past the count', async () => {
  await admin.createUser({ email: 'burst@example.dk', password: 'rigtig123' })
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, guess) => rawSignIn('burst@example.dk', `gaet-${guess}`)),
  )
  const messages = answers.map((answer) => (answer.body.error as { message: string }).message)
  expect(messages.filter((message) => message === 'INVALID_PASSWORD')).toHaveLength(6)
  expect(messages.filter((message) => message === TOO_MANY_ATTEMPTS)).toHaveLength(194)
})

test('the delay doubles from 1 s and stops at 15 min; the map of accounts is bounded, locked ones kept longest', async () => {
  const throttle = new SignInThrottle({ now: () => 0 })
  expect([5, 6, 7, 8, 15, 16, 50].map((failures) => throttle.delayAfter(failures))).toEqual([
    0, 1000, 2000, 4000, 512_000, 900_000, 900_000,
  ])
  let now = 0
  const small = new SignInThrottle({ maxAccounts: 3, now: () => now })
  const wrong = async () => false
  for (const key of ['a', 'b', 'c', 'd', 'e']) await small.check(key, wrong)
  expect(small.size).toBe(3)
  // A locked account is kept while unlocked ones are forgotten first.
  for (let failure = 0; failure < 6; failure++) await small.check('locked', wrong)
  for (const key of ['f', 'g', 'h', 'i']) await small.check(key, wrong)
  expect(await small.check('locked', async () => true)).toBe('locked')
  now += 24 * 3_600_000
  expect(await small.check('locked', async () => true)).toBe('right')
})

test('colleagues signing in to one account at the same moment are queued, never refused', async () => {
  await admin.createUser({ email: 'delt@example.dk', password: 'rigtig123' })
  const answers = await Promise.all(Array.from({ length: 20 }, () => rawSignIn('delt@example.dk', 'rigtig123')))
  expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200))
})

test('unknown addresses leave no state behind (EMAIL_NOT_FOUND never locks)', async () => {
  for (let guess = 0; guess < 8; guess++) {
    expect(await signIn('ukendt@example.dk', 'rigtig123')).toBe('auth/user-not-found')
  }
})

test('a password of more than 4,096 characters is refused wherever it is set, with WEAK_PASSWORD', async () => {
  const longest = 'p'.repeat(PASSWORD_MAX_LENGTH)
  const tooLong = `${longest}p`
  expect(await codeOf(createUserWithEmailAndPassword(web, 'lang@example.dk', tooLong))).toBe('auth/weak-password')
  const created = await createUserWithEmailAndPassword(web, 'lang@example.dk', longest)
  expect(await signIn('lang@example.dk', longest)).toBe('ok')
  expect(await codeOf(updatePassword(created.user, tooLong))).toBe('auth/weak-password')
  // The raw answers carry the detail; a 10 MB body is refused the same way, before any hashing.
  const raw = await fetch(
    `http://127.0.0.1:${emulator.authPort}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'tiMB@example.dk', password: 'x'.repeat(10_000_000) }),
    },
  )
  expect(raw.status).toBe(400)
  expect(((await raw.json()) as { error: { message: string } }).error.message).toBe(
    'WEAK_PASSWORD : Password should be at most 4096 characters',
  )
  // firebase-admin: createUser and updateUser (auth/invalid-password), and an import.
  expect(await codeOf(admin.createUser({ email: 'admin-lang@example.dk', password: tooLong }))).toBe(
    'auth/invalid-password',
  )
  expect(await codeOf(admin.updateUser(created.user.uid, { password: tooLong }))).toBe('auth/invalid-password')
  // An import (batchCreate) refuses only that account, with the same message.
  const batch = await fetch(
    `http://127.0.0.1:${emulator.adminPort}/identitytoolkit.googleapis.com/v1/projects/${PROJECT}/accounts:batchCreate`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify({
        users: [
          { localId: 'import-lang', email: 'import-lang@example.dk', rawPassword: tooLong },
          { localId: 'import-ok', email: 'import-ok@example.dk', rawPassword: longest },
        ],
      }),
    },
  )
  expect(await batch.json()).toEqual({
    kind: 'identitytoolkit#UploadAccountResponse',
    error: [{ index: 0, message: 'WEAK_PASSWORD : Password should be at most 4096 characters' }],
  })
  expect(await signIn('import-ok@example.dk', longest)).toBe('ok')
  // The minimum stays Firebase's 6.
  expect(await codeOf(createUserWithEmailAndPassword(web, 'kort@example.dk', '12345'))).toBe('auth/weak-password')
})
