import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { startCareWorld } from '../../../test/care-emulator.ts'
import { current } from '../../../test/use-db.ts'
import { getLocationPersons } from './get-location-persons.ts'
import { getPerson } from './get-person.ts'

vi.mock('../../../lib/firestore.ts', async () => (await import('../../../test/use-db.ts')).firestoreModule)

let world: Awaited<ReturnType<typeof startCareWorld>>
beforeAll(async () => {
  world = await startCareWorld()
})
afterAll(async () => {
  await world?.emulator.close()
})

test("an employee lists their location's persons, parsed with the domain schema", async () => {
  current.db = world.emp
  const { items: persons } = await getLocationPersons('L1')
  expect(persons.map((person) => person.id).sort()).toEqual(['p1', 'p2'])
  expect(persons.find((person) => person.id === 'p2')?.settings.includePlaceAnswers).toBe(false)
})

test("an employee of another location is denied that location's persons", async () => {
  current.db = world.emp2
  await expect(getLocationPersons('L1')).rejects.toMatchObject({ code: 'permission-denied' })
})

test('a person of another location, or one that does not exist, is no person to the employee', async () => {
  current.db = world.emp
  await expect(getPerson('p1')).resolves.toMatchObject({ id: 'p1', locationId: 'L1' })
  await expect(getPerson('p3')).resolves.toBeNull()
  await expect(getPerson('nobody')).resolves.toBeNull()
})
