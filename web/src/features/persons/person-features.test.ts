import { DEFAULT_LOCATION_FEATURES } from '@bosted/domain/location-features'
import { expect, test } from 'vitest'
import { personAbilities } from './person-features.ts'

const person = (features: Partial<Record<'all' | 'answers' | 'freeText' | 'speechToText', boolean>>) => ({
  settings: {
    answerOptions: [],
    disabled: false,
    includePlaceAnswers: true,
    notifications: null,
    features: { all: false, answers: false, freeText: false, speechToText: false, ...features },
  },
})

test("a person may use a feature of theirs that their location has on; 'all' is every feature", () => {
  expect(personAbilities(person({ answers: true }), DEFAULT_LOCATION_FEATURES)).toEqual({
    answers: true,
    freeText: false,
    speechToText: false,
    cloudDictation: false,
  })
  expect(personAbilities(person({ all: true }), DEFAULT_LOCATION_FEATURES)).toEqual({
    answers: true,
    freeText: true,
    speechToText: true,
    cloudDictation: false,
  })
})

test('a feature the location turned off is off for its persons too; the cloud only with dictation on', () => {
  const off = { answers: false, freeText: false, dictation: false, cloudDictation: true }
  expect(personAbilities(person({ all: true }), off)).toEqual({
    answers: false,
    freeText: false,
    speechToText: false,
    cloudDictation: false,
  })
  expect(
    personAbilities(person({ speechToText: true }), { ...DEFAULT_LOCATION_FEATURES, cloudDictation: true }),
  ).toEqual({
    answers: false,
    freeText: false,
    speechToText: true,
    cloudDictation: true,
  })
})
