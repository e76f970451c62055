import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { SessionExpiredError } from '../../../lib/session.ts'
import { ensureAuthUser } from './ensure-auth-user.ts'

// Firebase Auth in this browser holds no user (another device's "Log ud på alle enheder" signed it out).
vi.mock('../../../lib/firebase.ts', () => ({
  getFirebase: () => ({ auth: { authStateReady: async () => {}, currentUser: null } }),
}))
const fetchMock = vi.fn<typeof fetch>()
beforeEach(() => {
  fetchMock.mockReset()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => vi.unstubAllGlobals())

test('a 401 from POST /api/auth/token means the session is gone: the session-expired error', async () => {
  fetchMock.mockResolvedValue(Response.json({ error: { code: 'unauthenticated' } }, { status: 401 }))
  await expect(ensureAuthUser('u1')).rejects.toBeInstanceOf(SessionExpiredError)
})

test('any other failure is passed on as it is (the stored user is kept, REQ-SESSION-2)', async () => {
  fetchMock.mockResolvedValue(Response.json({ error: { code: 'internal' } }, { status: 500 }))
  await expect(ensureAuthUser('u1')).rejects.not.toBeInstanceOf(SessionExpiredError)
})
