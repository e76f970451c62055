import { expect, test } from 'vitest'
import { canAdminister, canManage, displayName, roleOfClaims } from './user.ts'

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

test('a display name is first and last name with one space', () => {
  expect(displayName({ firstName: 'Anne', lastName: 'Holm' })).toBe('Anne Holm')
})

test('a display name has no stray space when a part is empty or missing', () => {
  expect(displayName({ firstName: 'Anne', lastName: '' })).toBe('Anne')
  expect(displayName({ firstName: '', lastName: 'Holm' })).toBe('Holm')
  expect(displayName({ firstName: ' Anne', lastName: '' })).toBe('Anne')
  expect(displayName({})).toBe('')
})

test('a display name ignores parts that are not strings (an unparsed document)', () => {
  expect(displayName({ firstName: 'Anne', lastName: 7 })).toBe('Anne')
  expect(displayName({ firstName: null, lastName: 'Holm' })).toBe('Holm')
})
