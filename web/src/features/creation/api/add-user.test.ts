import { expect, test, vi } from 'vitest'
import { emptyUserForm, UserFormSchema } from '../user-form.ts'
import { ADD_USER_TOASTS, type AddUserSteps, addUser } from './add-user.ts'
import { AuthCreateError } from './auth-accounts.ts'

const NOW = new Date('2026-11-23T10:00:00.000Z')
const form = (overrides = {}) =>
  UserFormSchema.parse({
    ...emptyUserForm(['solsikken']),
    firstName: 'Mette',
    lastName: 'Lund',
    email: 'mette@demo.dk',
    password: 'hemmelig',
    ...overrides,
  })

function steps(overrides: Partial<AddUserSteps> = {}) {
  return {
    createAuthAccount: vi.fn(async () => 'uid-2'),
    removeAuthAccount: vi.fn(async () => {}),
    writeUser: vi.fn(async () => {}),
    deleteUser: vi.fn(async () => {}),
    setAdminRole: vi.fn(async () => {}),
    ...overrides,
  } satisfies AddUserSteps
}
const rejectedText = (error: unknown) => (ADD_USER_TOASTS.rejected as (error: unknown) => string)(error)

test("adding a user writes users/{uid} with the chosen locations and the form's job role", async () => {
  const run = steps()
  await expect(addUser(form(), NOW, run)).resolves.toBe('uid-2')
  expect(run.writeUser).toHaveBeenCalledWith({
    id: 'uid-2',
    firstName: 'Mette',
    lastName: 'Lund',
    createdAt: '2026-11-23T10:00:00.000Z',
    avatarUrl: null,
    contact: { email: 'mette@demo.dk', phone: null },
    jobRole: 'Medarbejder',
    locations: ['solsikken'],
    userRole: 'employee',
    settings: { disabled: false },
    locale: null,
  })
  expect(run.setAdminRole).not.toHaveBeenCalled()
  expect([ADD_USER_TOASTS.pending, ADD_USER_TOASTS.resolved]).toEqual([
    'Tilføjer bruger',
    'Brugeren blev tilføjet korrekt',
  ])
})

test('an admin created by an admin gets the role through the role call', async () => {
  const run = steps()
  await addUser(form({ userRole: 'admin' }), NOW, run)
  expect(run.writeUser).toHaveBeenCalledWith(expect.objectContaining({ userRole: 'superuser' }))
  expect(run.setAdminRole).toHaveBeenCalledWith('uid-2')
})

test('a failed auth creation of a user has its own text', async () => {
  const run = steps({ createAuthAccount: vi.fn(async () => Promise.reject(new AuthCreateError(null))) })
  const error = await addUser(form(), NOW, run).catch((caught: unknown) => caught)
  expect(rejectedText(error)).toBe('Auth-oprettelse af bruger fejlede')
  expect(run.writeUser).not.toHaveBeenCalled()
})

test('a Firestore failure after the account exists removes the account again', async () => {
  const run = steps({ writeUser: vi.fn(async () => Promise.reject(new Error('denied'))) })
  const error = await addUser(form(), NOW, run).catch((caught: unknown) => caught)
  expect(run.removeAuthAccount).toHaveBeenCalledWith('uid-2')
  expect(rejectedText(error)).toBe('Der skete en fejl. Brugeren blev ikke tilføjet.')
})

test('a failed role call for a new admin removes the staff document and then the account', async () => {
  const order: string[] = []
  const run = steps({
    setAdminRole: vi.fn(async () => Promise.reject(new Error('role call failed'))),
    deleteUser: vi.fn(async () => {
      order.push('document')
    }),
    removeAuthAccount: vi.fn(async () => {
      order.push('account')
    }),
  })
  const error = await addUser(form({ userRole: 'admin' }), NOW, run).catch((caught: unknown) => caught)
  expect(run.deleteUser).toHaveBeenCalledWith('uid-2')
  expect(run.removeAuthAccount).toHaveBeenCalledWith('uid-2')
  expect(order).toEqual(['document', 'account'])
  expect(rejectedText(error)).toBe('Der skete en fejl. Brugeren blev ikke tilføjet.')
})

test('a Firestore failure before the document exists removes only the account', async () => {
  const run = steps({ writeUser: vi.fn(async () => Promise.reject(new Error('denied'))) })
  await addUser(form(), NOW, run).catch(() => {})
  expect(run.deleteUser).not.toHaveBeenCalled()
  expect(run.removeAuthAccount).toHaveBeenCalledWith('uid-2')
})

test('a user needs at least one location', () => {
  const result = UserFormSchema.safeParse({ ...form(), locations: [] })
  expect(result.success).toBe(false)
  expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Vælg mindst én lokation'])
})
