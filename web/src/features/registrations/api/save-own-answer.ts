import type { Answer } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { createRegistration } from './create-registration.ts'
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
export async function saveOwnAnswer({ person, day, answer, comment, existing }: OwnAnswer): Promise<unknown> {
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

/** Saves the answer with the registration's promise toast; every registration list is read again afterwards. */
export function useSaveOwnAnswer() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: OwnAnswer) =>
      toastPromise(saveOwnAnswer(input), {
        pending: da.registration.pending,
        resolved: da.registration.ok,
        rejected: da.registration.fail,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: registrationKeys.all }),
    onError: reportError('an answer could not be saved'),
  })
}
