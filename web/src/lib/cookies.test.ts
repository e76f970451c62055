import { USER_ID_COOKIE as DOMAIN_USER_ID_COOKIE } from '@bosted/domain/api'
import { expect, test } from 'vitest'
import { readCookie, USER_ID_COOKIE } from './cookies.ts'

test('reads a cookie among others, decoded, and treats an empty one as absent', () => {
  expect(readCookie('userId', 'a=1; userId=abc%20d; b=2')).toBe('abc d')
  expect(readCookie('userId', 'userId=; b=2')).toBeNull()
  expect(readCookie('userId', 'xuserId=1')).toBeNull()
  expect(readCookie('userId', '')).toBeNull()
})

test("the web's cookie name is the domain's", () => {
  expect(USER_ID_COOKIE).toBe(DOMAIN_USER_ID_COOKIE)
})
