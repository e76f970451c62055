import { expect, test } from 'vitest'
import { initials, sortByName } from './person-name.ts'

test('persons are sorted by name with Danish collation: æ, ø and å after z', () => {
  const names = ['Åse Holm', 'Zara Berg', 'Øjvind Lund', 'Ærø Nielsen', 'Anna Krog', 'Anna Bak', 'ole Dam']
  const persons = names.map((name) => {
    const [firstName = '', lastName = ''] = name.split(' ')
    return { firstName, lastName }
  })
  expect(sortByName(persons).map((person) => `${person.firstName} ${person.lastName}`)).toEqual([
    'Anna Bak',
    'Anna Krog',
    'ole Dam',
    'Zara Berg',
    'Ærø Nielsen',
    'Øjvind Lund',
    'Åse Holm',
  ])
})

test('initials are the first letters of first and last name', () => {
  expect(initials({ firstName: 'øjvind', lastName: 'lund' })).toBe('ØL')
})
