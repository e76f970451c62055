import { PersonSchema } from '@bosted/domain/person'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { CARE_WORLD, startCareWorld } from '../../../test/care-emulator.ts'
import { current } from '../../../test/use-db.ts'
import { getAnswerOptions } from './get-answer-options.ts'

vi.mock('../../../lib/firestore.ts', async () => (await import('../../../test/use-db.ts')).firestoreModule)

let world: Awaited<ReturnType<typeof startCareWorld>>
beforeAll(async () => {
  world = await startCareWorld()
})
afterAll(async () => {
  await world?.emulator.close()
})

const personOf = (id: string) => PersonSchema.parse(CARE_WORLD[`persons/${id}`])
const L1 = { id: 'L1', answerOptions: ['l2', 'l1'] }

test("an employee gets a person's own options and the location's, in order, without hidden ones", async () => {
  current.db = world.emp
  const options = await getAnswerOptions(personOf('p1'), L1)
  expect(options.map((option) => option.id)).toEqual(['a2', 'a1', 'l2', 'l1'])
  const own = await getAnswerOptions(personOf('p2'), L1)
  expect(own.map((option) => option.id)).toEqual(['b1'])
})

test("an employee of another location is denied the person's options", async () => {
  current.db = world.emp2
  await expect(getAnswerOptions(personOf('p1'), L1)).rejects.toMatchObject({ code: 'permission-denied' })
})
