import { expect, test } from 'vitest'
import { type Caller, canCreateUsers, canReadUser, isAdmin, isDocumentId } from './access.ts'

const caller = (overrides: Partial<Caller> = {}): Caller => ({
  email: null,
  uid: 'me',
  role: 'user',
  claims: {},
  locations: ['north'],
  ...overrides,
})
const nobody = { userLocations: [], personLocations: [] }

test('staff read themselves and users or persons of their own locations only', () => {
  expect(canReadUser(caller(), 'me', nobody)).toBe(true)
  expect(canReadUser(caller(), 'colleague', { userLocations: ['south', 'north'], personLocations: [] })).toBe(true)
  expect(canReadUser(caller(), 'person', { userLocations: [], personLocations: ['north'] })).toBe(true)
  expect(canReadUser(caller(), 'stranger', { userLocations: ['south'], personLocations: [] })).toBe(false)
  expect(canReadUser(caller({ locations: [] }), 'anyone', nobody)).toBe(false)
})

test('admins are recognised by the admin claim or the stored role, and read anyone', () => {
  expect(isAdmin(caller({ claims: { admin: true } }))).toBe(true)
  expect(isAdmin(caller({ role: 'admin' }))).toBe(true)
  expect(isAdmin(caller({ role: 'superuser' }))).toBe(false)
  expect(canReadUser(caller({ claims: { admin: true }, locations: [] }), 'stranger', nobody)).toBe(true)
})

test('only superusers and admins create users', () => {
  expect(canCreateUsers(caller({ role: 'superuser' }))).toBe(true)
  expect(canCreateUsers(caller({ claims: { admin: true } }))).toBe(true)
  expect(canCreateUsers(caller({ role: 'employee' }))).toBe(false)
  expect(canCreateUsers(caller())).toBe(false)
})

test('ids that cannot name a Firestore document are recognised', () => {
  expect(isDocumentId('aBc123')).toBe(true)
  for (const id of ['', 'a/b', '.', '..', '__id__']) expect(isDocumentId(id)).toBe(false)
})
