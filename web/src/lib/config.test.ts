import { afterEach, expect, test, vi } from 'vitest'
import { backendEndpoint, loadRuntimeConfig, parseRuntimeConfig } from './config.ts'

const complete = {
  firebase: {
    apiKey: 'k',
    authDomain: 'demo-bosted.firebaseapp.com',
    projectId: 'demo-bosted',
    appId: 'a',
    storageBucket: 'demo-bosted.appspot.com',
  },
  emulators: { auth: 'http://127.0.0.1:9099', firestore: '127.0.0.1:8080', storage: null },
}

afterEach(() => {
  vi.restoreAllMocks()
})

test('a complete configuration sets up Firebase with the emulator hosts', () => {
  const config = parseRuntimeConfig(complete)
  expect(config.missingKeys).toEqual([])
  expect(config.firebase?.projectId).toBe('demo-bosted')
  expect(config.emulators).toEqual({ auth: 'http://127.0.0.1:9099', firestore: '127.0.0.1:8080', storage: null })
})

test('a missing or blank required key leaves Firebase unset and lists the keys', () => {
  const config = parseRuntimeConfig({ firebase: { ...complete.firebase, apiKey: ' ', appId: undefined } })
  expect(config.firebase).toBeNull()
  expect(config.missingKeys).toEqual(['apiKey', 'appId'])
})

test("loading an incomplete configuration logs 'Missing Firebase configuration keys' with the list", async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const fetchConfig = vi.fn(async () => Response.json({ firebase: { projectId: 'p' } }))
  const config = await loadRuntimeConfig(fetchConfig as unknown as typeof fetch)
  expect(config.firebase).toBeNull()
  expect(error).toHaveBeenCalledWith('Missing Firebase configuration keys', [
    'apiKey',
    'authDomain',
    'appId',
    'storageBucket',
  ])
})

test('an unreachable /config.json counts as every key missing instead of crashing', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const config = await loadRuntimeConfig((async () => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch)
  expect(config.missingKeys).toHaveLength(5)
  expect(error).toHaveBeenCalledTimes(1)
})

test('a backend is an emulator (host:port, http) or a pilot origin (https://host:port, TLS)', () => {
  expect(backendEndpoint('127.0.0.1:8080')).toEqual({ ssl: false, hostname: '127.0.0.1', port: 8080 })
  expect(backendEndpoint('https://pilot.kommune.dk:8443')).toEqual({ ssl: true, host: 'pilot.kommune.dk:8443' })
  expect(backendEndpoint('https://pilot.kommune.dk')).toEqual({ ssl: true, host: 'pilot.kommune.dk' })
})
