import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { startCareWorld } from '../../../test/care-emulator.ts'
import { current } from '../../../test/use-db.ts'
import { getLocations } from './get-locations.ts'

vi.mock('../../../lib/firestore.ts', async () => (await import('../../../test/use-db.ts')).firestoreModule)

let world: Awaited<ReturnType<typeof startCareWorld>>
beforeAll(async () => {
  world = await startCareWorld()
})
afterAll(async () => {
  await world?.emulator.close()
})

test("an employee reads their location, parsed with the domain's schema", async () => {
  current.db = world.emp
  expect(await getLocations(['L1'])).toEqual([
    {
      id: 'L1',
      name: 'Bosted L1',
      logoUrl: null,
      reminderTime: '20:00',
      answerOptions: ['l2', 'l1'],
      features: { answers: true, freeText: true, dictation: true, cloudDictation: false },
      subscription: null,
    },
  ])
})

test('a location the user may not read is a failure for the page to show, not an empty list', async () => {
  current.db = world.emp2
  await expect(getLocations(['L2', 'L1'])).rejects.toMatchObject({ code: 'permission-denied' })
})

test('a location that does not fit its schema is a failure, not a list without it', async () => {
  await world.emulator.admin.doc('locations/L2').update({ name: '' })
  current.db = world.emp2
  await expect(getLocations(['L2'])).rejects.toMatchObject({ name: '$ZodError' })
})
