import { PersonSchema } from '@bosted/domain/person'
import { expect, test } from 'vitest'
import { canEditPerson } from './use-person-settings.ts'

const person = PersonSchema.parse({ id: 'p1', createdAt: '2026-01-01T00:00:00.000Z', locationId: 'a' })
const viewer = (locations: string[], role: 'employee' | 'superuser' | 'admin') => ({
  user: { locations },
  isManager: role !== 'employee',
  isAdmin: role === 'admin',
})

test('a superuser edits the persons of their own locations only', () => {
  expect(canEditPerson(viewer(['a'], 'superuser'), person)).toBe(true)
  expect(canEditPerson(viewer(['b'], 'superuser'), person)).toBe(false)
})

test('an admin edits anyone, an employee no one, and nobody a person not (yet) read', () => {
  expect(canEditPerson(viewer([], 'admin'), person)).toBe(true)
  expect(canEditPerson(viewer(['a'], 'employee'), person)).toBe(false)
  expect(canEditPerson(viewer([], 'admin'), null)).toBe(false)
  expect(canEditPerson(viewer([], 'admin'), undefined)).toBe(false)
})
