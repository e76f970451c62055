import type { Person } from '@bosted/domain/person'

export type PersonAbilities = { answers: boolean; freeText: boolean; speechToText: boolean }

/** What a person may do themselves on "Min dag": each feature, or all of them with `all`. */
export function personAbilities(person: Pick<Person, 'settings'>): PersonAbilities {
  const { all, answers, freeText, speechToText } = person.settings.features
  return { answers: all || answers, freeText: all || freeText, speechToText: all || speechToText }
}
