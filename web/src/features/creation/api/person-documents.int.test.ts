import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { CARE_WORLD, type CareEmulator, staff, startCareEmulator } from '../../../test/care-emulator.ts'
import { current } from '../../../test/use-db.ts'
import { PersonFormSchema } from '../person-form.ts'
import { personDocument } from './add-person.ts'
import { addPersonToLocation, newAnswerId, writePersonDocuments } from './person-documents.ts'

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

const form = PersonFormSchema.parse({
  firstName: 'Astrid',
  lastName: 'Nybo',
  email: 'astrid@care.test',
  password: 'hemmelig',
  phone: '',
  answers: [],
  includePlaceAnswers: true,
  features: { all: false, answers: true, freeText: false, speechToText: false },
  disabled: false,
  reminderTime: '',
})

test("a superuser's new person passes the rules: the document, an own option and the location's persons", async () => {
  current.db = sup
  const answerId = await newAnswerId('new1')
  await writePersonDocuments(personDocument('new1', form, 'L1', [answerId], new Date()), [
    { id: answerId, text: 'Glad', value: 4 },
  ])
  await addPersonToLocation('L1', 'new1')
  const location = await emulator.admin.doc('locations/L1').get()
  expect(location.get('persons')).toEqual(['p1', 'p2', 'new1'])
  expect((await emulator.admin.doc(`persons/new1/answers/${answerId}`).get()).get('entity')).toBe('person')
})

test('an employee may not create a person nor add one to the location', async () => {
  current.db = emp
  await expect(writePersonDocuments(personDocument('new2', form, 'L1', [], new Date()), [])).rejects.toMatchObject({
    code: 'permission-denied',
  })
  await expect(addPersonToLocation('L1', 'new2')).rejects.toMatchObject({ code: 'permission-denied' })
})
