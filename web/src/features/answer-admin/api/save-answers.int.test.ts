import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { CARE_WORLD, type CareEmulator, staff, startCareEmulator } from '../../../test/care-emulator.ts'
import { current } from '../../../test/use-db.ts'
import { getOwnerAnswers } from './get-owner-answers.ts'
import { addAnswer, saveAnswerOrder, updateAnswer } from './save-answers.ts'

vi.mock('../../../lib/firestore.ts', async () => (await import('../../../test/use-db.ts')).firestoreModule)

let emulator: CareEmulator
let clients: Record<'sup' | 'emp' | 'sup2', Awaited<ReturnType<CareEmulator['signIn']>>>
beforeAll(async () => {
  emulator = await startCareEmulator({
    ...CARE_WORLD,
    'users/sup': staff('sup', ['L1'], 'superuser'),
    'users/sup2': staff('sup2', ['L2'], 'superuser'),
  })
  clients = {
    sup: await emulator.signIn('sup', { userRole: 'superuser' }),
    emp: await emulator.signIn('emp', { userRole: 'employee' }),
    sup2: await emulator.signIn('sup2', { userRole: 'superuser' }),
  }
})
afterAll(async () => {
  await emulator?.close()
})

const L1 = { entity: 'location', id: 'L1' } as const
const P1 = { entity: 'person', id: 'p1' } as const

test("a superuser adds a location option at the end of the order, hides it and reorders the location's options", async () => {
  current.db = clients.sup
  const before = await getOwnerAnswers(L1)
  expect(before.order).toEqual(['l2', 'l1'])
  const id = await addAnswer(L1, { text: 'Træt', value: 2 }, before.order)
  await updateAnswer(L1, id, { hidden: true })
  await saveAnswerOrder(L1, [id, 'l1', 'l2'], [...before.order, id])
  const after = await getOwnerAnswers(L1)
  expect(after.order).toEqual([id, 'l1', 'l2'])
  expect(after.options.find((option) => option.id === id)).toMatchObject({
    text: 'Træt',
    value: 2,
    hidden: true,
    entity: 'location',
  })
})

test('a superuser adds an own option for a person of their location; hidden ones are listed too', async () => {
  current.db = clients.sup
  const before = await getOwnerAnswers(P1)
  expect(before.options.map((option) => option.id).sort()).toEqual(['a1', 'a2', 'ah'])
  const id = await addAnswer(P1, { text: 'Gik en tur', value: 3 }, before.order)
  expect((await getOwnerAnswers(P1)).order).toEqual(['a2', 'a1', id])
})

test('an employee and a superuser of another location are refused every change', async () => {
  current.db = clients.emp
  await expect(addAnswer(L1, { text: 'Nej', value: 1 }, [])).rejects.toMatchObject({ code: 'permission-denied' })
  // The order as stored (the employee may read it), so the write itself meets the rules.
  const stored = (await getOwnerAnswers(L1)).order
  await expect(saveAnswerOrder(L1, [...stored].reverse(), stored)).rejects.toMatchObject({ code: 'permission-denied' })
  current.db = clients.sup2
  await expect(updateAnswer(P1, 'a1', { hidden: true })).rejects.toMatchObject({ code: 'permission-denied' })
})

test('options added from the same reading are all kept, and a reorder from an older list is refused, not dropping one', async () => {
  current.db = clients.sup
  const seen = await getOwnerAnswers(P1)
  // Two superusers each add an option from the list as they saw it.
  const first = await addAnswer(P1, { text: 'Glad', value: 5 }, seen.order)
  const second = await addAnswer(P1, { text: 'Vred', value: 1 }, seen.order)
  expect((await getOwnerAnswers(P1)).order).toEqual([...seen.order, first, second])
  // A reorder made from the list before those additions would drop them: refused instead.
  await expect(saveAnswerOrder(P1, [...seen.order].reverse(), seen.order)).rejects.toMatchObject({
    name: 'ConcurrentEditError',
  })
  expect((await getOwnerAnswers(P1)).order).toEqual([...seen.order, first, second])
})
