import { expect, test } from 'vitest'
import { canAdminister, canManage, roleOfClaims } from './user.ts'

test('superusers and admins manage; employees do not', () => {
  expect(canManage('superuser')).toBe(true)
  expect(canManage('admin')).toBe(true)
  expect(canManage('user', { admin: true })).toBe(true)
  expect(canManage('user')).toBe(false)
  expect(canManage('employee', {})).toBe(false)
})

test('only admins administer, by role or by the admin claim', () => {
  expect(canAdminister('admin')).toBe(true)
  expect(canAdminister('employee', { admin: true })).toBe(true)
  expect(canAdminister('superuser')).toBe(false)
  expect(canAdminister('superuser', { admin: false })).toBe(false)
})

test('the role of claims without a userRole is user', () => {
  expect(roleOfClaims({})).toBe('user')
  expect(roleOfClaims({ userRole: 'superuser' })).toBe('superuser')
})
