import { afterEach, beforeEach, expect, type MockInstance, test, vi } from 'vitest'

vi.mock('firebase/app', () => ({ initializeApp: vi.fn((options: object) => ({ name: '[DEFAULT]', options })) }))
vi.mock('firebase/auth', () => ({
  initializeAuth: vi.fn(() => ({})),
  connectAuthEmulator: vi.fn(),
  indexedDBLocalPersistence: 'indexedDB',
  browserLocalPersistence: 'local',
}))

const complete = {
  apiKey: 'k',
  authDomain: 'demo-bosted.firebaseapp.com',
  projectId: 'demo-bosted',
  appId: 'a',
  storageBucket: 'demo-bosted.appspot.com',
}

/** A fresh app start: config.ts and firebase.ts keep what they loaded in module state. */
async function start(configJson: unknown) {
  vi.resetModules()
  const { initializeApp } = await import('firebase/app')
  const { initializeAuth, connectAuthEmulator } = await import('firebase/auth')
  const { loadRuntimeConfig } = await import('./config.ts')
  const { getFirebase } = await import('./firebase.ts')
  const { getDb } = await import('./firestore.ts')
  await loadRuntimeConfig((async () => Response.json(configJson)) as unknown as typeof fetch)
  return { initializeApp, initializeAuth, connectAuthEmulator, getFirebase, getDb }
}

let error: MockInstance<typeof console.error>
beforeEach(() => {
  vi.clearAllMocks()
  error = vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => {
  vi.restoreAllMocks()
})

test('with an incomplete configuration no Firebase app is set up, and Firestore refuses to start', async () => {
  const app = await start({ firebase: { ...complete, appId: ' ', storageBucket: undefined } })
  expect(error).toHaveBeenCalledWith('Missing Firebase configuration keys', ['appId', 'storageBucket'])
  expect(app.getFirebase()).toBeNull()
  expect(app.initializeApp).not.toHaveBeenCalled()
  expect(app.initializeAuth).not.toHaveBeenCalled()
  await expect(app.getDb()).rejects.toThrow('Firebase is not configured')
})

test('with a missing /config.json no Firebase app is set up either', async () => {
  const app = await start(null)
  expect(error).toHaveBeenCalledWith('Missing Firebase configuration keys', [
    'apiKey',
    'authDomain',
    'projectId',
    'appId',
    'storageBucket',
  ])
  expect(app.getFirebase()).toBeNull()
  expect(app.initializeApp).not.toHaveBeenCalled()
})

test('a complete configuration sets up the Firebase app and Auth once, against the Auth emulator', async () => {
  const app = await start({ firebase: complete, emulators: { auth: 'http://127.0.0.1:9099' } })
  expect(error).not.toHaveBeenCalled()
  const firebase = app.getFirebase()
  expect(firebase).not.toBeNull()
  expect(app.getFirebase()).toBe(firebase)
  expect(app.initializeApp).toHaveBeenCalledTimes(1)
  expect(app.initializeApp).toHaveBeenCalledWith(complete)
  expect(app.connectAuthEmulator).toHaveBeenCalledWith(firebase?.auth, 'http://127.0.0.1:9099', {
    disableWarnings: true,
  })
})
