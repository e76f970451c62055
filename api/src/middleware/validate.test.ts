import { CreateUserRequestSchema } from '@bosted/domain'
import { expect, test } from 'vitest'
import { fieldErrors } from './validate.ts'

test('zod issues become messages per field, with the spec texts', () => {
  const result = CreateUserRequestSchema.safeParse({ email: 'x', password: '123', displayName: ' ' })
  expect(result.success).toBe(false)
  expect(fieldErrors(result.error!)).toEqual({
    email: ['Ugyldig email format'],
    password: ['Adgangskode skal være mindst 6 tegn'],
    displayName: [expect.any(String)],
  })
  const notAnObject = CreateUserRequestSchema.safeParse([])
  expect(Object.keys(fieldErrors(notAnObject.error!))).toEqual(['_'])
})
