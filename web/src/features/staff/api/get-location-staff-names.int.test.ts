import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { startCareWorld } from '../../../test/care-emulator.ts'
import { current } from '../../../test/use-db.ts'
import { getLocationStaffNames } from './get-location-staff-names.ts'

vi.mock('../../../lib/firestore.ts', async () => (await import('../../../test/use-db.ts')).firestoreModule)

let world: Awaited<ReturnType<typeof startCareWorld>>
beforeAll(async () => {
  world = await startCareWorld()
})
afterAll(async () => {
  await world?.emulator.close()
})

test("an employee reads the names of their location's staff, who made its registrations", async () => {
  current.db = world.emp
  expect(Object.fromEntries(await getLocationStaffNames('L1'))).toEqual({ emp: 'Fornavn emp Efternavn' })
})

test("an employee of another location is denied that location's staff", async () => {
  current.db = world.emp2
  await expect(getLocationStaffNames('L1')).rejects.toMatchObject({ code: 'permission-denied' })
})
