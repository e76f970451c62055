import type { DecodedIdToken } from 'firebase-admin/auth'
import { expect, test } from 'vitest'
import { SessionVerifier } from './sessions.ts'

// A stand-in for the token verifier: this unit test is about caching, not about verification.
function fakeVerify(answer: (cookie: string) => Promise<DecodedIdToken>) {
  const calls: string[] = []
  const verifySessionCookie = (cookie: string) => {
    calls.push(cookie)
    return answer(cookie)
  }
  return { verifySessionCookie, calls }
}
const decoded = (uid: string, exp: number) => ({ uid, exp }) as DecodedIdToken
const authError = (code: string) => Object.assign(new Error(code), { code })

test('a positive check is reused for cacheMs, never past the cookie expiry', async () => {
  let now = 1_000_000
  const { verifySessionCookie, calls } = fakeVerify(async () => decoded('u1', 1_003))
  const verifier = new SessionVerifier({ verifySessionCookie, cacheMs: 5_000, now: () => now })
  expect((await verifier.verify('c1'))?.uid).toBe('u1')
  now += 2_000
  await verifier.verify('c1')
  expect(calls).toHaveLength(1)
  now += 1_500 // past exp (1_003 s) although within cacheMs
  await verifier.verify('c1')
  expect(calls).toHaveLength(2)
})

test('concurrent checks of one cookie share a single Auth call', async () => {
  const { verifySessionCookie, calls } = fakeVerify(async () => decoded('u1', 9_999_999_999))
  const verifier = new SessionVerifier({ verifySessionCookie, cacheMs: 0 })
  const results = await Promise.all([verifier.verify('c1'), verifier.verify('c1'), verifier.verify('c1')])
  expect(results.map((result) => result?.uid)).toEqual(['u1', 'u1', 'u1'])
  expect(calls).toHaveLength(1)
})

test('invalid, revoked and missing sessions are null; an unreachable Auth is an error', async () => {
  const { verifySessionCookie } = fakeVerify(async (cookie) => {
    if (cookie === 'down') throw authError('app/network-error')
    throw authError(cookie === 'revoked' ? 'auth/session-cookie-revoked' : 'auth/argument-error')
  })
  const verifier = new SessionVerifier({ verifySessionCookie, cacheMs: 5_000 })
  expect(await verifier.verify(undefined)).toBeNull()
  expect(await verifier.verify('')).toBeNull()
  expect(await verifier.verify('garbage')).toBeNull()
  expect(await verifier.verify('revoked')).toBeNull()
  await expect(verifier.verify('down')).rejects.toMatchObject({ code: 'app/network-error' })
})

test('forget ends a cookie at once and drops cached checks of its user; admit lets it in again', async () => {
  const { verifySessionCookie, calls } = fakeVerify(async (cookie) =>
    decoded(cookie.startsWith('a') ? 'u1' : 'u2', 9_999_999_999),
  )
  const verifier = new SessionVerifier({ verifySessionCookie, cacheMs: 60_000 })
  await verifier.verify('a1')
  await verifier.verify('a2')
  await verifier.verify('b1')
  verifier.forget('a1', 'u1', Date.now() + 60_000)
  expect(await verifier.verify('a1')).toBeNull()
  expect((await verifier.verify('a2'))?.uid).toBe('u1')
  expect((await verifier.verify('b1'))?.uid).toBe('u2')
  expect(calls).toEqual(['a1', 'a2', 'b1', 'a2'])
  await verifier.admit('a1')
  expect((await verifier.verify('a1'))?.uid).toBe('u1')
})

test("end ends one cookie only, here and in the store; the same user's other cookies stay valid", async () => {
  const { verifySessionCookie } = fakeVerify(async () => decoded('u1', 9_999_999_999))
  const stored = new Map<string, number>()
  const endedStore = {
    has: async (key: string) => stored.has(key),
    add: async (key: string, until: number) => void stored.set(key, until),
    remove: async (key: string) => void stored.delete(key),
  }
  const verifier = new SessionVerifier({ verifySessionCookie, cacheMs: 60_000, endedStore })
  await verifier.verify('a1')
  await verifier.verify('a2')
  await verifier.end('a1', Date.now() + 60_000)
  expect(await verifier.verify('a1')).toBeNull()
  expect((await verifier.verify('a2'))?.uid).toBe('u1')
  expect(stored.size).toBe(1)
  // Another instance (no memory of the ending) reads it from the store.
  const other = new SessionVerifier({ verifySessionCookie, cacheMs: 60_000, endedStore })
  expect(await other.verify('a1')).toBeNull()
  expect((await other.verify('a2'))?.uid).toBe('u1')
  await other.admit('a1')
  expect(stored.size).toBe(0)
  expect((await other.verify('a1'))?.uid).toBe('u1')
})

test('a session in steady use is re-checked in the background before its cache time ends', async () => {
  let now = 1_000_000
  let revoked = false
  const { verifySessionCookie, calls } = fakeVerify(async () => {
    if (revoked) throw authError('auth/session-cookie-revoked')
    return decoded('u1', 9_999_999_999)
  })
  const verifier = new SessionVerifier({ verifySessionCookie, cacheMs: 5_000, now: () => now, random: () => 1 })
  await verifier.verify('c1')
  now += 4_400
  expect((await verifier.verify('c1'))?.uid).toBe('u1')
  expect(calls).toHaveLength(1)
  now += 200
  revoked = true
  // Still the cached answer, while a re-check runs behind it.
  expect((await verifier.verify('c1'))?.uid).toBe('u1')
  expect(calls).toHaveLength(2)
  await new Promise((resolve) => setImmediate(resolve))
  expect(await verifier.verify('c1')).toBeNull()
})
