import { type Answer, isCareDayAllowed } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { registrationsPath } from '@bosted/domain/paths'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { registrationKeys } from './keys.ts'

export type NewRegistration = {
  personId: string
  locationId: string
  day: string
  answer: Pick<Answer, 'id' | 'text' | 'value' | 'entity'>
  comment: string
  createdBy: string
  /** The author's name as shown with the registration (like a diary entry's authorName). */
  createdByName: string
}

/**
 * Writes a registration with exactly the fields firestore.rules allows; the author is the caller
 * and the location is the person's. The caller wraps it in toastPromise(…, da.registration).
 */
export async function createRegistration(input: NewRegistration, now: Date = new Date()): Promise<string> {
  // A day still to come is refused here as in firestore.rules (the forms do not offer one).
  if (!isCareDayAllowed(input.day, now)) throw new RangeError('a registration cannot be dated on a day still to come')
  const [db, { addDoc, collection }] = await Promise.all([getDb(), firestoreLite()])
  const comment = input.comment.trim()
  const reference = await addDoc(collection(db, registrationsPath(input.personId)), {
    answerId: input.answer.id,
    text: input.answer.text,
    value: input.answer.value,
    entity: input.answer.entity,
    ...(comment === '' ? {} : { comment }),
    day: input.day,
    createdAt: now.toISOString(),
    createdBy: input.createdBy,
    createdByName: input.createdByName,
    personId: input.personId,
    locationId: input.locationId,
  })
  return reference.id
}

/** Registers, with the promise toast; every registration list is read again afterwards. */
export function useCreateRegistration() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: NewRegistration) =>
      toastPromise(createRegistration(input), {
        pending: da.registration.pending,
        resolved: da.registration.ok,
        rejected: da.registration.fail,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: registrationKeys.all }),
    onError: reportError('a registration could not be written'),
  })
}
