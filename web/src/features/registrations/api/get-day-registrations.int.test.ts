import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import {
  answer,
  type CareEmulator,
  DAY,
  location,
  person,
  staff,
  startCareEmulator,
} from '../../../test/care-emulator.ts'
import { current, stored } from '../../../test/use-db.ts'
import { createRegistration } from './create-registration.ts'
import { deleteRegistration } from './delete-registration.ts'
import { getDayRegistrations } from './get-day-registrations.ts'
import { getPersonRegistrations } from './get-person-registrations.ts'
import { updateRegistration } from './update-registration.ts'

vi.mock('../../../lib/firestore.ts', async () => (await import('../../../test/use-db.ts')).firestoreModule)
vi.mock('../../../lib/kept-writes.ts', async (importActual) =>
  (await import('../../../test/use-db.ts')).keptModule(await importActual()),
)

const registration = (personId: string, locationId: string, createdBy: string, day = DAY) => ({
  answerId: 'a1',
  text: 'Glad',
  value: 4,
  entity: 'person',
  day,
  createdAt: `${day}T09:00:00.000Z`,
  createdBy,
  personId,
  locationId,
})

const BAD_DAY = '2026-11-12'

let emulator: CareEmulator
const clients: Record<string, Awaited<ReturnType<CareEmulator['signIn']>>> = {}
const as = (uid: string) => {
  current.db = clients[uid] ?? null
}
const glad = answer('a1', 'person', 4)

beforeAll(async () => {
  emulator = await startCareEmulator({
    'users/emp': staff('emp', ['L1']),
    'users/emp3': staff('emp3', ['L1']),
    'users/emp2': staff('emp2', ['L2']),
    'users/sup': staff('sup', ['L1'], 'superuser'),
    'locations/L1': location('L1', ['p1', 'p2']),
    'locations/L2': location('L2', ['p3']),
    'persons/p1': person('p1', 'L1'),
    'persons/p2': person('p2', 'L1'),
    'persons/p3': person('p3', 'L2'),
    'persons/p1/registrations/r1': registration('p1', 'L1', 'emp3'),
    'persons/p2/registrations/r2': registration('p2', 'L1', 'emp'),
    'persons/p2/registrations/r-old': registration('p2', 'L1', 'emp', '2026-11-13'),
    'persons/p3/registrations/r3': registration('p3', 'L2', 'emp2'),
    // As an older version or an import might leave one: no answerId, no entity.
    'persons/p1/registrations/r-bad': (({ answerId: _a, entity: _e, ...rest }) => rest)(
      registration('p1', 'L1', 'emp', BAD_DAY),
    ),
    'persons/p2/registrations/r-good': registration('p2', 'L1', 'emp', BAD_DAY),
  })
  for (const [uid, claims] of [
    ['emp', { userRole: 'employee' }],
    ['emp3', { userRole: 'employee' }],
    ['emp2', { userRole: 'employee' }],
    ['sup', { userRole: 'superuser' }],
  ] as const)
    clients[uid] = await emulator.signIn(uid, claims)
})

afterAll(async () => {
  await emulator?.close()
})

test("an employee reads a whole day of their location's registrations in one query", async () => {
  as('emp')
  const { items: registrations } = await getDayRegistrations('L1', DAY)
  expect(registrations.map((item) => [item.id, item.personId]).sort()).toEqual([
    ['r1', 'p1'],
    ['r2', 'p2'],
  ])
})

test('a registration that does not fit its schema is left out and counted; the rest of the day is shown', async () => {
  as('emp')
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const day = await getDayRegistrations('L1', BAD_DAY)
  expect(day.items.map((item) => item.id)).toEqual(['r-good'])
  expect(day.skipped).toBe(1)
  // One warning, naming the fields at fault and no id or value.
  expect(warn).toHaveBeenCalledTimes(1)
  expect(String(warn.mock.calls[0]?.[0])).toBe(
    'registrations: 1 record(s) left out, not fitting the schema (fields: answerId, entity)',
  )
  warn.mockRestore()
  const week = await getPersonRegistrations('p1', BAD_DAY, BAD_DAY)
  expect(week).toEqual({ items: [], skipped: 1 })
})

test("an employee of another location is denied that location's day", async () => {
  as('emp2')
  await expect(getDayRegistrations('L1', DAY)).rejects.toMatchObject({ code: 'permission-denied' })
  expect((await getDayRegistrations('L2', DAY)).items).toHaveLength(1)
})

test("an employee reads a person's registrations for a week", async () => {
  as('emp')
  const { items: week } = await getPersonRegistrations('p2', '2026-11-16', '2026-11-22')
  expect(week.map((item) => item.id)).toEqual(['r2'])
  as('emp2')
  await expect(getPersonRegistrations('p2', '2026-11-16', '2026-11-22')).rejects.toMatchObject({
    code: 'permission-denied',
  })
})

test('an employee registers for a person of their location, corrects it and deletes it', async () => {
  as('emp')
  const id = await stored(
    createRegistration({
      personId: 'p1',
      locationId: 'L1',
      day: '2026-11-21',
      answer: glad,
      comment: '  Sov godt  ',
      createdBy: 'emp',
      createdByName: 'Emma Medarbejder',
    }),
  )
  let [saved] = (await getDayRegistrations('L1', '2026-11-21')).items
  expect(saved).toMatchObject({
    id,
    comment: 'Sov godt',
    createdBy: 'emp',
    createdByName: 'Emma Medarbejder',
    personId: 'p1',
    value: 4,
  })

  await stored(
    updateRegistration({
      personId: 'p1',
      registrationId: id,
      answer: answer('l1', 'location', 2),
      comment: '',
      updatedBy: 'emp',
    }),
  )
  ;[saved] = (await getDayRegistrations('L1', '2026-11-21')).items
  expect(saved).toMatchObject({ answerId: 'l1', entity: 'location', value: 2, updatedBy: 'emp' })
  expect(saved?.comment).toBeUndefined()

  await deleteRegistration('p1', id)
  expect((await getDayRegistrations('L1', '2026-11-21')).items).toEqual([])
})

test("an employee may not register for another location's person, nor change a colleague's registration", async () => {
  as('emp')
  const input = {
    personId: 'p3',
    locationId: 'L2',
    day: DAY,
    answer: glad,
    comment: '',
    createdBy: 'emp',
    createdByName: 'Emma Medarbejder',
  }
  await expect(stored(createRegistration(input))).rejects.toMatchObject({ code: 'permission-denied' })
  await expect(
    stored(updateRegistration({ personId: 'p1', registrationId: 'r1', answer: glad, comment: 'x', updatedBy: 'emp' })),
  ).rejects.toMatchObject({ code: 'permission-denied' })
  await expect(deleteRegistration('p1', 'r1')).rejects.toMatchObject({ code: 'permission-denied' })
})

test("a superuser of the location corrects and deletes an employee's registration", async () => {
  as('sup')
  await stored(
    updateRegistration({ personId: 'p1', registrationId: 'r1', answer: glad, comment: 'Rettet', updatedBy: 'sup' }),
  )
  const [r1] = (await getDayRegistrations('L1', DAY)).items.filter((item) => item.id === 'r1')
  expect(r1).toMatchObject({ comment: 'Rettet', updatedBy: 'sup', createdBy: 'emp3' })
  await deleteRegistration('p1', 'r1')
  expect((await getDayRegistrations('L1', DAY)).items.map((item) => item.id)).toEqual(['r2'])
})
