import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { SessionExpiredError } from '../../../lib/session.ts'
import { getUserClaims } from './get-user-claims.ts'

const fetchMock = vi.fn<typeof fetch>()

beforeEach(() => {
  fetchMock.mockReset()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

test("the user's claims come from data.customClaims of GET /api/user/getUserById?id={id}", async () => {
  fetchMock.mockResolvedValue(Response.json({ data: { customClaims: { admin: true } } }))
  expect(await getUserClaims('u 1')).toEqual({ admin: true })
  expect(fetchMock).toHaveBeenCalledWith('/api/user/getUserById?id=u%201', expect.objectContaining({ method: 'GET' }))
})

test('an answer without claims means no claims, whatever was known before', async () => {
  fetchMock.mockImplementation(async () => Response.json({ data: { customClaims: null } }))
  expect(await getUserClaims('u1')).toEqual({})
  expect(await getUserClaims('u1', { admin: true })).toEqual({})
})

test('a 401 means the session is gone: it rejects with the session-expired error', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  fetchMock.mockResolvedValue(Response.json({ error: { code: 'unauthenticated' } }, { status: 401 }))
  await expect(getUserClaims('u1')).rejects.toBeInstanceOf(SessionExpiredError)
  expect(warn).not.toHaveBeenCalled()
})

test('any other failure only warns and yields the claims last known for the user, or none', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  fetchMock.mockResolvedValueOnce(Response.json({ error: { code: 'internal' } }, { status: 500 }))
  expect(await getUserClaims('u1')).toEqual({})
  fetchMock.mockResolvedValueOnce(Response.json({ error: { code: 'forbidden' } }, { status: 403 }))
  expect(await getUserClaims('u1')).toEqual({})
  fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'))
  expect(await getUserClaims('u1')).toEqual({})
  // A read cut off as the page is left (a reload, a typed address) keeps what was known.
  fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'))
  expect(await getUserClaims('u1', { admin: true })).toEqual({ admin: true })
  fetchMock.mockResolvedValueOnce(Response.json({ error: { code: 'unavailable' } }, { status: 503 }))
  expect(await getUserClaims('u1', { admin: true })).toEqual({ admin: true })
  expect(warn).toHaveBeenCalledTimes(5)
  expect(warn).toHaveBeenCalledWith('getUserById failed', expect.anything())
})
