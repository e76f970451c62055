import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { DAY, startCareWorld } from '../../../test/care-emulator.ts'
import { current } from '../../../test/use-db.ts'
import { getDayNoteCounts } from './get-day-note-counts.ts'

vi.mock('../../../lib/firestore.ts', async () => (await import('../../../test/use-db.ts')).firestoreModule)

let world: Awaited<ReturnType<typeof startCareWorld>>
beforeAll(async () => {
  world = await startCareWorld()
})
afterAll(async () => {
  await world?.emulator.close()
})

test("an employee counts a day's diary entries per person of their location in one query", async () => {
  current.db = world.emp
  expect(Object.fromEntries(await getDayNoteCounts('L1', DAY))).toEqual({ p1: 2 })
  expect(Object.fromEntries(await getDayNoteCounts('L1', '2026-11-19'))).toEqual({ p2: 1 })
})

test("an employee of another location is denied that location's diary entries", async () => {
  current.db = world.emp2
  await expect(getDayNoteCounts('L1', DAY)).rejects.toMatchObject({ code: 'permission-denied' })
})
