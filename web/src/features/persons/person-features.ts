import type { LocationFeatures } from '@bosted/domain/location-features'
import type { Person } from '@bosted/domain/person'

export type PersonAbilities = { answers: boolean; freeText: boolean; speechToText: boolean; cloudDictation: boolean }

/**
 * What a person may do themselves on "Min dag": each of their features (or all of them with `all`),
 * where their location has it on too; dictation through the cloud only where the location allows it.
 */
export function personAbilities(person: Pick<Person, 'settings'>, location: LocationFeatures): PersonAbilities {
  const { all, answers, freeText, speechToText } = person.settings.features
  return {
    answers: (all || answers) && location.answers,
    freeText: (all || freeText) && location.freeText,
    speechToText: (all || speechToText) && location.dictation,
    cloudDictation: location.dictation && location.cloudDictation,
  }
}
