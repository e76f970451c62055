import { expect, test } from 'vitest'
import { locationNameError } from './location-name-field.tsx'

test('a location name is required and bounded once trimmed', () => {
  expect(locationNameError('   ')).toBe('Navn er påkrævet')
  expect(locationNameError(` ${'x'.repeat(200)} `)).toBeNull()
  expect(locationNameError('x'.repeat(201))).toBe('Højst 200 tegn')
  expect(locationNameError('Åbo')).toBeNull()
})
