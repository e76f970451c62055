import { expect, test } from 'vitest'
import { EMPTY_PERSON_FORM, PersonFormSchema, toggleFeature } from './person-form.ts'
import { rolesFor } from './user-form.ts'

const messages = (values: Partial<typeof EMPTY_PERSON_FORM>) => {
  const result = PersonFormSchema.safeParse({ ...EMPTY_PERSON_FORM, ...values })
  // The form shows each field's first message (react-hook-form's zod resolver).
  const first: Record<string, string> = {}
  for (const issue of result.error?.issues ?? []) first[issue.path.join('.')] ??= issue.message
  return first
}

test('an empty person form names each required field in Danish', () => {
  expect(messages({})).toEqual({
    firstName: 'Fornavn er påkrævet',
    email: 'Email er påkrævet',
    password: 'Adgangskode er påkrævet',
  })
})

test('a blank first name is required, a one-letter one too short for a person', () => {
  expect(messages({ firstName: '   ', email: 'a@b.dk', password: 'hemmelig' })).toEqual({
    firstName: 'Fornavn er påkrævet',
  })
  expect(messages({ firstName: 'A', email: 'a@b.dk', password: 'hemmelig' })).toEqual({
    firstName: 'Fornavn skal være mindst 2 tegn',
  })
})

test('a malformed email and a short password get their messages', () => {
  expect(messages({ firstName: 'Astrid', email: 'astrid@demo', password: '12345' })).toEqual({
    email: 'Ugyldig email format',
    password: 'Adgangskode skal være mindst 6 tegn',
  })
})

test('an answer option needs a text and a numeric value; the reminder is HH:MM or empty', () => {
  expect(
    messages({
      firstName: 'Astrid',
      email: 'a@b.dk',
      password: 'hemmelig',
      answers: [{ text: ' ', value: 'fem' }],
      reminderTime: '25:00',
    }),
  ).toEqual({
    'answers.0.text': 'Tekst er påkrævet',
    'answers.0.value': 'Værdien skal være et tal',
    reminderTime: 'Angiv tidspunktet som TT:MM',
  })
  expect(messages({ firstName: 'Astrid', email: 'a@b.dk', password: 'hemmelig', reminderTime: '' })).toEqual({})
})

test("'all' switches the three features together", () => {
  const none = EMPTY_PERSON_FORM.features
  const all = toggleFeature(none, 'all', true)
  expect(all).toEqual({ all: true, answers: true, freeText: true, speechToText: true })
  expect(toggleFeature(all, 'all', false)).toEqual(none)
})

test("switching one feature off clears 'all'; the three on sets it", () => {
  const all = { all: true, answers: true, freeText: true, speechToText: true }
  expect(toggleFeature(all, 'freeText', false)).toEqual({ ...all, all: false, freeText: false })
  const two = { all: false, answers: true, freeText: true, speechToText: false }
  expect(toggleFeature(two, 'speechToText', true)).toEqual(all)
})

test('a superuser may create employees only; an admin any role', () => {
  expect(rolesFor(false)).toEqual(['employee'])
  expect(rolesFor(true)).toEqual(['employee', 'superuser', 'admin'])
})

test('two answer options with the same text and value are refused on the later one; a password of spaces too', () => {
  const valid = { firstName: 'Anna', email: 'a@b.dk', password: 'hemmelig' }
  expect(
    messages({
      ...valid,
      answers: [
        { text: 'Glad', value: '4' },
        { text: 'Træt', value: '1' },
        { text: ' glad', value: '4,0' },
      ],
    }),
  ).toEqual({ 'answers.2.text': 'Der findes allerede en svarmulighed med samme tekst og værdi' })
  expect(
    messages({
      ...valid,
      answers: [
        { text: 'Glad', value: '4' },
        { text: 'Glad', value: '5' },
      ],
    }),
  ).toEqual({})
  expect(messages({ ...valid, password: '      ' })).toEqual({
    password: 'Adgangskoden må ikke kun bestå af mellemrum',
  })
})
