import { expect, test } from 'vitest'
import { canEditUser } from './user-access.ts'

const superuser = { id: 's', isAdmin: false, isManager: true, locations: ['north'] }
const employee = { id: 'e', userRole: 'employee' as const, locations: ['north'] }

test('a superuser edits the employees of their own locations only', () => {
  expect(canEditUser(superuser, employee)).toBe(true)
  expect(canEditUser(superuser, { ...employee, locations: ['south'] })).toBe(false)
  expect(canEditUser(superuser, { ...employee, userRole: 'superuser' })).toBe(false)
})

test('an admin edits anyone; an employee no one', () => {
  expect(canEditUser({ ...superuser, isAdmin: true }, { ...employee, userRole: 'admin' })).toBe(true)
  expect(canEditUser({ ...superuser, isManager: false }, employee)).toBe(false)
})
