import type { Answer } from '@bosted/domain/answer'
import { useKeptWrite } from '../../../lib/kept-writes.ts'
import type { Written } from '../../../lib/live.ts'
import { createRegistration, registrationMessages } from './create-registration.ts'
import { registrationKeys } from './keys.ts'
import type { StoredRegistration } from './registration-document.ts'
import { updateRegistration } from './update-registration.ts'

export type OwnAnswer = {
  person: { id: string; locationId: string; name: string }
  day: string
  answer: Answer
  comment: string
  /** The person's own registration of the day, changed instead of a second one. */
  existing: StoredRegistration | null
}

/** A person (borger) answering today's question for themselves: the first answer, or a change of it. */
export async function saveOwnAnswer({ person, day, answer, comment, existing }: OwnAnswer): Promise<Written> {
  if (existing === null) {
    return createRegistration({
      personId: person.id,
      locationId: person.locationId,
      day,
      answer,
      comment,
      createdBy: person.id,
      createdByName: person.name,
    })
  }
  return updateRegistration({
    personId: person.id,
    registrationId: existing.id,
    answer,
    comment,
    updatedBy: person.id,
  })
}

/** Saves the answer with the registration's promise toast; every registration list is read again once the backend has it. */
export function useSaveOwnAnswer() {
  return useKeptWrite(saveOwnAnswer, registrationMessages, registrationKeys.all, 'an answer could not be saved')
}
