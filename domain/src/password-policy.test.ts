import { expect, test } from 'vitest'
import { passwordMinLength, passwordProblem } from './password-policy.ts'

const pilot = (password: string, email = 'signe.dahl@kommune.dk') =>
  passwordProblem(password, { policy: 'pilot', email })

test('the pilot policy refuses a password shorter than 12 characters', () => {
  expect(pilot('Kort1234!')).toBe('Adgangskoden skal være mindst 12 tegn')
  expect(pilot('')).toBe('Adgangskode er påkrævet')
})

test('the pilot policy refuses the email and the part before the @', () => {
  expect(pilot('Signe.Dahl@kommune.dk')).toBe('Adgangskoden må ikke være emailen')
  expect(pilot('signe.dahl@k', 'signe.dahl@k')).toBe('Adgangskoden må ikke være emailen')
  expect(pilot('signe.dahl12', 'signe.dahl12@kommune.dk')).toBe('Adgangskoden må ikke være emailen')
})

test('the pilot policy refuses the commonest passwords, also with digits and signs appended', () => {
  for (const password of [
    'Adgangskode2024!',
    'password1234',
    '123456789012',
    'aaaaaaaaaaaa',
    'Sommer2025!!',
    'qwertyuiop123',
  ]) {
    expect(pilot(password), password).toBe('Adgangskoden er for almindelig. Vælg en, der er sværere at gætte.')
  }
})

test('the pilot policy accepts a long uncommon password', () => {
  expect(pilot('hest-kaffe-vindue-7')).toBeNull()
  expect(pilot('Rødgrød med fløde')).toBeNull()
})

test('the demo policy keeps the spec rule of at least 6 characters', () => {
  expect(passwordProblem('demo1234', { policy: 'demo', email: 'admin@demo.dk' })).toBeNull()
  expect(passwordProblem('abc', { policy: 'demo' })).toBe('Adgangskode skal være mindst 6 tegn')
  expect(passwordMinLength('demo')).toBe(6)
  expect(passwordMinLength('pilot')).toBe(12)
})
