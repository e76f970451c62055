import { afterEach, expect, test, vi } from 'vitest'
import { revokeDeviceRefreshToken } from './refresh-tokens.ts'

afterEach(() => vi.restoreAllMocks())

const TOKEN = 'AMf-secret-refresh-token'

test('against a real Firebase project (no emulator host) nothing is asked and nothing logged', async () => {
  const fetchSpy = vi.spyOn(globalThis, 'fetch')
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  expect(await revokeDeviceRefreshToken({ emulatorHost: undefined, apiKey: 'k' }, 'p', TOKEN)).toBe('unsupported')
  expect(fetchSpy).not.toHaveBeenCalled()
  expect(warn).not.toHaveBeenCalled()
})

test("asks the emulator's admin listener with the owner credential", async () => {
  const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}', { status: 200 }))
  expect(await revokeDeviceRefreshToken({ emulatorHost: '127.0.0.1:9098', apiKey: 'k' }, 'demo', TOKEN)).toBe('revoked')
  const [url, init] = fetchSpy.mock.calls[0] ?? []
  expect(url).toBe('http://127.0.0.1:9098/emulator/v1/projects/demo/refreshTokens:revoke')
  expect(init?.headers).toMatchObject({ authorization: 'Bearer owner' })
  expect(JSON.parse(String(init?.body))).toEqual({ refreshToken: TOKEN })
})

test('a refusal or an unreachable emulator never throws, and the warning names no token', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(new Response('nope', { status: 404 }))
  expect(await revokeDeviceRefreshToken({ emulatorHost: 'h:1', apiKey: 'k' }, 'p', TOKEN)).toBe('failed')
  vi.spyOn(globalThis, 'fetch').mockRejectedValueOnce(new TypeError('fetch failed'))
  expect(await revokeDeviceRefreshToken({ emulatorHost: 'h:1', apiKey: 'k' }, 'p', TOKEN)).toBe('failed')
  expect(warn).toHaveBeenCalledTimes(2)
  expect(JSON.stringify(warn.mock.calls)).not.toContain(TOKEN)
})
