import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { SessionExpiredError } from '../../../lib/session.ts'
import { ensureAuthUser } from './ensure-auth-user.ts'

// Auth in this browser has no user (another profile, or the stored one is gone): the api is asked
// for a custom token, and its 401 means the session itself has ended.
vi.mock('../../../lib/firebase.ts', () => ({
  getFirebase: () => ({ auth: { authStateReady: async () => {}, currentUser: null } }),
}))

const fetchMock = vi.fn<typeof fetch>()

beforeEach(() => {
  fetchMock.mockReset()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  vi.unstubAllGlobals()
})

test('a 401 for the custom token means the session is gone: it rejects with the session-expired error', async () => {
  fetchMock.mockResolvedValue(Response.json({ error: { code: 'unauthenticated' } }, { status: 401 }))
  await expect(ensureAuthUser('u1')).rejects.toBeInstanceOf(SessionExpiredError)
  expect(fetchMock).toHaveBeenCalledWith('/api/auth/token', expect.objectContaining({ method: 'POST' }))
})

test('another failure is not taken for an ended session', async () => {
  fetchMock.mockResolvedValue(Response.json({ error: { code: 'internal' } }, { status: 500 }))
  await expect(ensureAuthUser('u1')).rejects.not.toBeInstanceOf(SessionExpiredError)
})
