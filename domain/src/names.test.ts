import { expect, test } from 'vitest'
import { displayName, initials } from './names.ts'

test('a display name is first and last name with one space', () => {
  expect(displayName({ firstName: 'Anne', lastName: 'Holm' })).toBe('Anne Holm')
})

test('a display name has no stray space when a part is empty or missing', () => {
  expect(displayName({ firstName: 'Anne', lastName: '' })).toBe('Anne')
  expect(displayName({ firstName: '', lastName: 'Holm' })).toBe('Holm')
  expect(displayName({ firstName: ' Anne', lastName: '' })).toBe('Anne')
  expect(displayName({})).toBe('')
})

test('a display name ignores parts that are not strings (an unparsed document)', () => {
  expect(displayName({ firstName: 'Anne', lastName: 7 })).toBe('Anne')
  expect(displayName({ firstName: null, lastName: 'Holm' })).toBe('Holm')
})

test('initials are the first letters of both names, upper case', () => {
  expect(initials({ firstName: 'anne', lastName: 'holm' })).toBe('AH')
  expect(initials({ firstName: 'Øjvind', lastName: '' })).toBe('Ø')
})
