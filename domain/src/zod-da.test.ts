import { afterAll, beforeAll, expect, test } from 'vitest'
import * as z from 'zod/mini'
import { RegistrationFormSchema } from './answer.ts'
import { da } from './messages/da.ts'
import { installDanishZodErrors } from './zod-da.ts'

beforeAll(() => installDanishZodErrors())
afterAll(() => z.config({ customError: undefined }))

const message = (schema: z.ZodMiniType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message

test('every way a field can be wrong has a Danish message', () => {
  expect(message(z.string(), null)).toBe('Feltet skal udfyldes')
  expect(message(z.string(), undefined)).toBe('Feltet skal udfyldes')
  expect(message(z.string(), 42)).toBe('Ugyldig værdi')
  expect(message(z.number(), 'x')).toBe('Værdien skal være et tal')
  expect(message(z.string().check(z.minLength(1)), '')).toBe('Feltet skal udfyldes')
  expect(message(z.string().check(z.minLength(3)), 'ab')).toBe('Mindst 3 tegn')
  expect(message(z.string().check(z.maxLength(100)), 'x'.repeat(101))).toBe('Højst 100 tegn')
  expect(message(z.number().check(z.minimum(0)), -1)).toBe('Mindst 0')
  expect(message(z.number().check(z.maximum(1500.5)), 2000)).toBe('Højst 1.500,5')
  expect(message(z.int(), 2.5)).toBe('Skriv et helt tal')
  expect(message(z.array(z.string()).check(z.minLength(1)), [])).toBe('Vælg mindst 1')
  expect(message(z.array(z.string()).check(z.maxLength(2)), ['a', 'b', 'c'])).toBe('Højst 2 valg')
  expect(message(z.email(), 'nej')).toBe('Ugyldig email format')
  expect(message(z.string().check(z.regex(/^\d+$/)), 'x')).toBe('Ugyldigt format')
  expect(message(z.enum(['a', 'b']), undefined)).toBe('Vælg en af mulighederne')
  expect(message(z.enum(['a', 'b']), 'c')).toBe('Ugyldig værdi')
  expect(message(z.object({ a: z.string() }), 'x')).toBe('Ugyldig værdi')
})

test('no message of the map is English', () => {
  const english = /invalid|expected|received|too (small|big)/i
  for (const [schema, input] of [
    [z.string(), null],
    [z.number(), 'x'],
    [z.boolean(), 'x'],
    [z.uuid(), 'x'],
    [z.literal('a'), 'b'],
    [z.union([z.string(), z.number()]), null],
  ] as const) {
    expect(message(schema, input)).not.toMatch(english)
  }
})

test('a schema\'s own message still wins; the register dialog\'s "Gem" without an answer says so in Danish', () => {
  expect(message(z.string().check(z.minLength(1, 'Fornavn er påkrævet')), '')).toBe('Fornavn er påkrævet')
  expect(message(RegistrationFormSchema, { answerId: null, comment: '' })).toBe(da.registration.answerRequired)
})
