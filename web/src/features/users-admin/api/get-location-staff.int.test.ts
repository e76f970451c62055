import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { CARE_WORLD, type CareEmulator, staff, startCareEmulator } from '../../../test/care-emulator.ts'
import { current } from '../../../test/use-db.ts'
import { getLocationStaff } from './get-location-staff.ts'
import { updateUser } from './update-user.ts'

vi.mock('../../../lib/firestore.ts', async () => (await import('../../../test/use-db.ts')).firestoreModule)

let emulator: CareEmulator
let sup: Awaited<ReturnType<CareEmulator['signIn']>>
let emp: Awaited<ReturnType<CareEmulator['signIn']>>
beforeAll(async () => {
  emulator = await startCareEmulator({ ...CARE_WORLD, 'users/sup': staff('sup', ['L1'], 'superuser') })
  sup = await emulator.signIn('sup', { userRole: 'superuser' })
  emp = await emulator.signIn('emp', { userRole: 'employee' })
})
afterAll(async () => {
  await emulator?.close()
})

test("staff read their location's colleagues with the query the rules test, and no other location's", async () => {
  current.db = emp
  expect((await getLocationStaff('L1')).items.map((user) => user.id).sort()).toEqual(['emp', 'sup'])
  await expect(getLocationStaff('L2')).rejects.toMatchObject({ code: 'permission-denied' })
})

test("a superuser changes an employee's name, job role and disabled; an employee may not", async () => {
  current.db = sup
  await updateUser('emp', { firstName: 'Signe', lastName: 'Dahl', jobRole: 'Pædagog', disabled: true })
  const stored = await emulator.admin.doc('users/emp').get()
  expect(stored.get('jobRole')).toBe('Pædagog')
  expect(stored.get('settings.disabled')).toBe(true)
  current.db = emp
  await expect(
    updateUser('sup', { firstName: 'X', lastName: 'Y', jobRole: 'Z', disabled: false }),
  ).rejects.toMatchObject({ code: 'permission-denied' })
})
