import { expect, test } from 'vitest'
import { matchesSearch } from './search.ts'

const person = { firstName: 'Åse', lastName: 'Møller', contact: { email: 'aase@demo.dk', phone: '+45 12 34' } }

test('a search matches every word in the name, email or phone, ignoring case', () => {
  expect(matchesSearch(person, '')).toBe(true)
  expect(matchesSearch(person, 'åse MØL')).toBe(true)
  expect(matchesSearch(person, 'aase@demo')).toBe(true)
  expect(matchesSearch(person, '12 34')).toBe(true)
  expect(matchesSearch(person, 'Åse Hansen')).toBe(false)
  expect(matchesSearch({ ...person, contact: null }, 'demo')).toBe(false)
})
