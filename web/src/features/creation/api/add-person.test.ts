import { afterEach, expect, test, vi } from 'vitest'
import { EMPTY_PERSON_FORM, PersonFormSchema } from '../person-form.ts'
import { ADD_PERSON_TOASTS, type AddPersonSteps, addPerson } from './add-person.ts'
import { AuthCreateError, createAuthAccount } from './auth-accounts.ts'

const NOW = new Date('2026-11-23T10:00:00.000Z')
const form = PersonFormSchema.parse({
  ...EMPTY_PERSON_FORM,
  firstName: ' Astrid ',
  lastName: 'Nybo',
  email: 'astrid@demo.dk',
  password: 'hemmelig',
  answers: [{ text: 'Glad', value: '2,5' }],
  features: { all: true, answers: true, freeText: true, speechToText: true },
  reminderTime: '20:30',
})

function steps(overrides: Partial<AddPersonSteps> = {}) {
  return {
    createAuthAccount: vi.fn(async () => 'uid-1'),
    removeAuthAccount: vi.fn(async () => {}),
    newAnswerId: vi.fn(async () => 'answer-1'),
    writePersonDocuments: vi.fn(async () => {}),
    addPersonToLocation: vi.fn(async () => {}),
    ...overrides,
  } satisfies AddPersonSteps
}

const rejectedText = (error: unknown) => (ADD_PERSON_TOASTS.rejected as (error: unknown) => string)(error)

afterEach(() => {
  vi.unstubAllGlobals()
})

test('adding a person creates the account, writes the person with every default and adds them to the location', async () => {
  const run = steps()
  await expect(addPerson(form, 'egebakken', NOW, run)).resolves.toBe('uid-1')
  expect(run.createAuthAccount).toHaveBeenCalledWith({
    email: 'astrid@demo.dk',
    password: 'hemmelig',
    displayName: 'Astrid Nybo',
  })
  expect(run.writePersonDocuments).toHaveBeenCalledWith(
    {
      id: 'uid-1',
      firstName: 'Astrid',
      lastName: 'Nybo',
      createdAt: '2026-11-23T10:00:00.000Z',
      avatarUrl: null,
      contact: { email: 'astrid@demo.dk', phone: null },
      settings: {
        answerOptions: ['answer-1'],
        disabled: false,
        includePlaceAnswers: true,
        features: { all: true, answers: true, freeText: true, speechToText: true },
        notifications: { reminderTime: '20:30' },
      },
      locale: 'da',
      locationId: 'egebakken',
    },
    [{ id: 'answer-1', text: 'Glad', value: 2.5 }],
  )
  expect(run.addPersonToLocation).toHaveBeenCalledWith('egebakken', 'uid-1')
  expect(run.removeAuthAccount).not.toHaveBeenCalled()
  expect(ADD_PERSON_TOASTS.pending).toBe('Tilføjer borger')
  expect(ADD_PERSON_TOASTS.resolved).toBe('Borgeren blev tilføjet korrekt')
})

test('a create call that does not answer 200 is shown as the failed auth creation', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ error: { code: 'email_exists', message: 'x' } }), { status: 409 })),
  )
  const error = await createAuthAccount({ email: 'a@demo.dk', password: 'hemmelig', displayName: 'A' }).catch(
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(AuthCreateError)
  expect(rejectedText(error)).toBe('Auth-oprettelse af borger fejlede')
})

test('a create call answered without a userId is shown as the failed auth creation', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ statusCode: 200, body: {} }), { status: 200 })),
  )
  const error = await createAuthAccount({ email: 'a@demo.dk', password: 'hemmelig', displayName: 'A' }).catch(
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(AuthCreateError)
  expect(rejectedText(error)).toBe('Auth-oprettelse af borger fejlede')
})

test('a create call answered 200 with a userId gives the new uid', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ statusCode: 200, body: { userId: 'u9' } }), { status: 200 })),
  )
  await expect(createAuthAccount({ email: 'a@demo.dk', password: 'hemmelig', displayName: 'A' })).resolves.toBe('u9')
})

test('a failed auth creation writes nothing and removes nothing', async () => {
  const run = steps({ createAuthAccount: vi.fn(async () => Promise.reject(new AuthCreateError(null))) })
  const error = await addPerson(form, 'egebakken', NOW, run).catch((caught: unknown) => caught)
  expect(rejectedText(error)).toBe('Auth-oprettelse af borger fejlede')
  expect(run.writePersonDocuments).not.toHaveBeenCalled()
  expect(run.removeAuthAccount).not.toHaveBeenCalled()
})

test('a Firestore failure after the account exists removes the account and shows the general failure', async () => {
  const denied = Object.assign(new Error('denied'), { code: 'permission-denied' })
  const run = steps({ writePersonDocuments: vi.fn(async () => Promise.reject(denied)) })
  const error = await addPerson(form, 'egebakken', NOW, run).catch((caught: unknown) => caught)
  expect(error).toBe(denied)
  expect(run.removeAuthAccount).toHaveBeenCalledWith('uid-1')
  expect(run.addPersonToLocation).not.toHaveBeenCalled()
  expect(rejectedText(error)).toBe('Der skete en fejl. Borgeren blev ikke tilføjet.')
})

test("a failure adding the person to the location's persons also removes the account", async () => {
  const run = steps({ addPersonToLocation: vi.fn(async () => Promise.reject(new Error('offline'))) })
  const error = await addPerson(form, 'egebakken', NOW, run).catch((caught: unknown) => caught)
  expect(run.removeAuthAccount).toHaveBeenCalledWith('uid-1')
  expect(rejectedText(error)).toBe('Der skete en fejl. Borgeren blev ikke tilføjet.')
})
