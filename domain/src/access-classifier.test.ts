import { expect, test } from 'vitest'
import { bostedAccessClassifier, personDataOf, personObjectOf } from './access-classifier.ts'
import { notesPath, personAvatarObject, personPath, registrationsPath, userAvatarObject } from './paths.ts'

test('the person document and its answers, registrations and notes are the person data', () => {
  expect(personDataOf(personPath('p1'))).toEqual({ personId: 'p1', resource: 'person' })
  expect(personDataOf(`${notesPath('p1')}/n1`)).toEqual({ personId: 'p1', resource: 'notes' })
  expect(personDataOf(`${registrationsPath('p1')}/r1`)).toEqual({ personId: 'p1', resource: 'registrations' })
  expect(personDataOf('persons/p1/answers/a1')).toEqual({ personId: 'p1', resource: 'answers' })
})

test('staff, locations, unknown subcollections and collection paths are not person data', () => {
  expect(personDataOf('users/p1')).toBeNull()
  expect(personDataOf('locations/l1/answers/a1')).toBeNull()
  expect(personDataOf('persons/p1/other/x')).toBeNull()
  expect(personDataOf('persons/p1/notes')).toBeNull()
  expect(personDataOf('persons/')).toBeNull()
})

test("a person's Storage objects are their avatar; staff avatars are not person data", () => {
  expect(personObjectOf(personAvatarObject('p1', 'avatar.png'))).toEqual({ personId: 'p1', resource: 'avatar' })
  expect(personObjectOf(userAvatarObject('u1', 'avatar.png'))).toBeNull()
  expect(personObjectOf('persons/p1')).toBeNull()
})

test("Bosted's classifier names where every person path starts", () => {
  expect(bostedAccessClassifier.prefixes).toEqual(['persons/'])
  for (const path of ['persons/p1', 'persons/p1/notes/n1']) {
    expect(bostedAccessClassifier.prefixes.some((prefix) => path.startsWith(prefix))).toBe(true)
  }
})
