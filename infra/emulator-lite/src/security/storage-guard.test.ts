import { expect, test } from 'vitest'
import { downloadTokenSuffices } from './storage-guard.ts'

test('a download token suffices except under the configured prefixes', () => {
  expect(downloadTokenSuffices('persons/p1/avatar', [])).toBe(true)
  expect(downloadTokenSuffices('persons/p1/avatar', ['persons/'])).toBe(false)
  expect(downloadTokenSuffices('persons/p1/avatar', ['exports/', 'persons/'])).toBe(false)
  expect(downloadTokenSuffices('users/u1/avatar', ['persons/'])).toBe(true)
  // A prefix is the start of the object name, case-sensitive, and an empty one protects nothing.
  expect(downloadTokenSuffices('personsx/p1', ['persons/'])).toBe(true)
  expect(downloadTokenSuffices('Persons/p1/avatar', ['persons/'])).toBe(true)
  expect(downloadTokenSuffices('a/persons/p1', ['persons/'])).toBe(true)
  expect(downloadTokenSuffices('anything', [''])).toBe(true)
})
