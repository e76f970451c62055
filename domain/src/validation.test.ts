import { expect, test } from 'vitest'
import { isCareDayAllowed, isDuplicateAnswer, missingLocationAnswerFields } from './answer.ts'
import { NewPersonSchema, nameOrDefault, PERSON_DEFAULT_LAST_NAME, PersonSchema } from './person.ts'
import { NewUserSchema, UserSchema } from './user.ts'
import { hasRequiredFields } from './validation.ts'

function messages(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
  return result.error?.issues.map((issue) => issue.message) ?? []
}

test('rejects a blank first name with the spec message', () => {
  expect(messages(NewUserSchema.safeParse({ firstName: '   ', email: 'a@b.dk', password: 'secret' }))).toEqual([
    'Fornavn er påkrævet',
  ])
})

test('rejects missing and malformed emails with the spec messages', () => {
  expect(messages(NewUserSchema.safeParse({ firstName: 'Ann', email: '', password: 'secret' }))).toContain(
    'Email er påkrævet',
  )
  expect(messages(NewUserSchema.safeParse({ firstName: 'Ann', email: 'ann@', password: 'secret' }))).toEqual([
    'Ugyldig email format',
  ])
})

test('rejects a password of only spaces, and keeps the spaces of a real one', () => {
  expect(messages(NewUserSchema.safeParse({ firstName: 'Ann', email: 'a@b.dk', password: '      ' }))).toEqual([
    'Adgangskoden må ikke kun bestå af mellemrum',
  ])
  const parsed = NewUserSchema.safeParse({ firstName: 'Ann', email: 'a@b.dk', password: ' hemmelig ' })
  expect(parsed.success && parsed.data.password).toBe(' hemmelig ')
})

test('rejects a missing password and one shorter than 6 characters', () => {
  expect(messages(NewUserSchema.safeParse({ firstName: 'Ann', email: 'a@b.dk', password: '' }))).toContain(
    'Adgangskode er påkrævet',
  )
  expect(messages(NewUserSchema.safeParse({ firstName: 'Ann', email: 'a@b.dk', password: '12345' }))).toEqual([
    'Adgangskode skal være mindst 6 tegn',
  ])
  expect(NewUserSchema.safeParse({ firstName: 'Ann', email: 'a@b.dk', password: '123456' }).success).toBe(true)
})

test('a person needs a first name of at least 2 characters, a user does not', () => {
  const draft = { firstName: 'A', email: 'a@b.dk', password: '123456' }
  expect(NewUserSchema.safeParse(draft).success).toBe(true)
  expect(NewPersonSchema.safeParse(draft).success).toBe(false)
  expect(NewPersonSchema.safeParse({ ...draft, firstName: 'Al' }).success).toBe(true)
})

test('required fields present means first name, email and password are non-blank', () => {
  expect(hasRequiredFields({ firstName: 'A', email: 'x', password: 'y' })).toBe(true)
  expect(hasRequiredFields({ firstName: ' ', email: 'x', password: 'y' })).toBe(false)
})

test('person and user documents get every default of the spec', () => {
  const person = PersonSchema.parse({ id: 'p1', createdAt: '2026-01-01T00:00:00.000Z' })
  expect(person).toMatchObject({
    firstName: 'Ikke',
    lastName: 'Angivet',
    avatarUrl: null,
    contact: null,
    locale: 'da',
    settings: {
      answerOptions: [],
      disabled: false,
      includePlaceAnswers: true,
      notifications: null,
      features: { all: false, freeText: false, speechToText: false, answers: false },
    },
  })
  const user = UserSchema.parse({ id: 'u1', createdAt: '2026-01-01T00:00:00.000Z' })
  expect(user).toMatchObject({
    firstName: 'Demo',
    lastName: 'Bruger',
    jobRole: 'Not specified',
    userRole: 'user',
    locations: [],
    settings: { disabled: false },
    locale: null,
  })
  expect(NewUserSchema.parse({ firstName: 'A', email: 'a@b.dk', password: '123456' }).jobRole).toBe('Medarbejder')
})

test('the answer migration fills exactly the missing fields', () => {
  const now = '2026-01-01T00:00:00.000Z'
  expect(missingLocationAnswerFields({ text: 'Glad', value: 5 }, now)).toEqual({
    entity: 'location',
    hidden: false,
    createdAt: now,
  })
  expect(missingLocationAnswerFields({ entity: 'location', hidden: true, createdAt: 'x' }, now)).toEqual({})
})

test('refuses a password longer than 4096 characters, with the Danish message', () => {
  const base = { firstName: 'Ann', email: 'a@b.dk' }
  expect(NewUserSchema.safeParse({ ...base, password: 'x'.repeat(4096) }).success).toBe(true)
  expect(messages(NewUserSchema.safeParse({ ...base, password: 'x'.repeat(10 * 1024) }))).toEqual([
    'Adgangskode må højst være 4096 tegn',
  ])
})

test('refuses names with control, NUL, zero-width or bidi-override characters, for staff and persons alike', () => {
  const hidden = [
    '\u0000',
    '\u0007',
    '\u007F',
    '\u0085',
    '\u200B',
    '\u200D',
    '\uFEFF',
    '\u202E',
    '\u202A',
    '\u2066',
    '\u2069',
  ]
  for (const character of hidden) {
    const name = `An${character}n`
    expect(messages(NewUserSchema.safeParse({ firstName: name, email: 'a@b.dk', password: 'secret' }))).toEqual([
      'Navnet må ikke indeholde usynlige tegn eller styretegn',
    ])
    expect(
      messages(NewUserSchema.safeParse({ firstName: 'Ann', lastName: name, email: 'a@b.dk', password: 'secret' })),
    ).toEqual(['Navnet må ikke indeholde usynlige tegn eller styretegn'])
    expect(messages(NewPersonSchema.safeParse({ firstName: name, email: 'a@b.dk', password: 'secret' }))).toContain(
      'Navnet må ikke indeholde usynlige tegn eller styretegn',
    )
  }
  // Danish letters, accents, hyphens and apostrophes are names.
  expect(
    NewUserSchema.safeParse({ firstName: 'Åse-Marie', lastName: "D'Ørsted Ñ", email: 'a@b.dk', password: 'secret' })
      .success,
  ).toBe(true)
})

test('refuses a first or last name over 100 characters (firestore.rules refuses more), with the Danish message', () => {
  const base = { email: 'a@b.dk', password: 'secret' }
  expect(NewUserSchema.safeParse({ ...base, firstName: 'x'.repeat(100), lastName: 'y'.repeat(100) }).success).toBe(true)
  expect(messages(NewUserSchema.safeParse({ ...base, firstName: 'x'.repeat(101) }))).toEqual(['Højst 100 tegn'])
  expect(messages(NewPersonSchema.safeParse({ ...base, firstName: 'Ann', lastName: 'y'.repeat(101) }))).toEqual([
    'Højst 100 tegn',
  ])
  // Trimmed first: spaces around a 100-character name do not count.
  expect(NewUserSchema.safeParse({ ...base, firstName: ` ${'x'.repeat(100)} ` }).success).toBe(true)
})

test("a person saved without a last name gets REQ-PERSON-2's default 'Angivet', without a first name 'Ikke'", () => {
  const base = { id: 'p', createdAt: '2026-11-25T10:00:00.000Z' }
  expect(PersonSchema.parse({ ...base, firstName: 'Anna', lastName: '' })).toMatchObject({
    firstName: 'Anna',
    lastName: 'Angivet',
  })
  expect(PersonSchema.parse({ ...base, firstName: '   ', lastName: null })).toMatchObject({
    firstName: 'Ikke',
    lastName: 'Angivet',
  })
  expect(PersonSchema.parse(base)).toMatchObject({ firstName: 'Ikke', lastName: 'Angivet' })
  expect(PersonSchema.parse({ ...base, firstName: 'Bo', lastName: 'Berg' })).toMatchObject({
    firstName: 'Bo',
    lastName: 'Berg',
  })
  expect(nameOrDefault('  ', PERSON_DEFAULT_LAST_NAME)).toBe('Angivet')
  expect(nameOrDefault(' Berg ', PERSON_DEFAULT_LAST_NAME)).toBe('Berg')
})

test('a care record is never dated on a day still to come (Copenhagen days)', () => {
  const now = new Date('2026-11-25T22:30:00Z') // 23:30 in Copenhagen
  expect(isCareDayAllowed('2026-11-25', now)).toBe(true)
  expect(isCareDayAllowed('2026-01-01', now)).toBe(true)
  expect(isCareDayAllowed('2026-11-26', now)).toBe(false)
  expect(isCareDayAllowed('2027-11-25', now)).toBe(false)
  // 23:30 UTC is already the 26th in Copenhagen.
  expect(isCareDayAllowed('2026-11-26', new Date('2026-11-25T23:30:00Z'))).toBe(true)
})

test('two answer options of one owner never have the same text and value', () => {
  const options = [{ id: 'a', text: 'Glad', value: 4 }]
  expect(isDuplicateAnswer(options, { text: ' glad ', value: 4 })).toBe(true)
  expect(isDuplicateAnswer(options, { text: 'Glad', value: 5 })).toBe(false)
  expect(isDuplicateAnswer(options, { text: 'Glad', value: 4 }, 'a')).toBe(false)
})
