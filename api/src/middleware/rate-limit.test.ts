import { expect, test } from 'vitest'
import { RateLimiter } from './rate-limit.ts'

test('allows max attempts per window and key, then says how many seconds to wait', () => {
  let now = 1_000_000
  const limiter = new RateLimiter({ max: 2, windowMs: 60_000, now: () => now })
  expect(limiter.hit('a')).toBe(0)
  expect(limiter.hit('a')).toBe(0)
  expect(limiter.hit('a')).toBe(60)
  expect(limiter.hit('b')).toBe(0)
  now += 45_500
  expect(limiter.hit('a')).toBe(15)
  now += 14_500
  expect(limiter.hit('a')).toBe(0)
})
