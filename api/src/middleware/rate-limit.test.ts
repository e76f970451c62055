import { expect, test } from 'vitest'
import { RateLimiter } from './rate-limit.ts'

test('allows max attempts per window and key, then says how many seconds to wait', () => {
  let now = 1_000_000
  const limiter = new RateLimiter({ max: 2, windowMs: 60_000, now: () => now })
  expect(limiter.check('a')).toBe(0)
  limiter.hit('a')
  expect(limiter.check('a')).toBe(0)
  limiter.hit('a')
  expect(limiter.check('a')).toBe(60)
  expect(limiter.check('b')).toBe(0)
  now += 45_500
  expect(limiter.check('a')).toBe(15)
  now += 14_500
  expect(limiter.check('a')).toBe(0)
})

test('checking counts nothing', () => {
  const limiter = new RateLimiter({ max: 1, windowMs: 60_000 })
  for (let i = 0; i < 5; i++) expect(limiter.check('a')).toBe(0)
  limiter.hit('a')
  expect(limiter.check('a')).toBeGreaterThan(0)
})
