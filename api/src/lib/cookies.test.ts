import { expect, test } from 'vitest'
import { isSecureCookie } from './cookies.ts'

test('cookies are Secure except on localhost, unless configured otherwise', () => {
  expect(isSecureCookie('auto', 'http://127.0.0.1:3001/api/auth/login')).toBe(false)
  expect(isSecureCookie('auto', 'http://localhost/api')).toBe(false)
  expect(isSecureCookie('auto', 'http://[::1]:8000/api')).toBe(false)
  expect(isSecureCookie('auto', 'https://bosted.kommune.dk/api')).toBe(true)
  expect(isSecureCookie('auto', 'http://192.168.1.20:8000/api')).toBe(true)
  expect(isSecureCookie(false, 'https://bosted.kommune.dk/api')).toBe(false)
  expect(isSecureCookie(true, 'http://127.0.0.1/api')).toBe(true)
})
