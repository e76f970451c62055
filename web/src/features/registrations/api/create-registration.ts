import { type Answer, isCareDayAllowed } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { registrationsPath } from '@bosted/domain/paths'
import { createKept, useKeptWrite } from '../../../lib/kept-writes.ts'
import type { Written } from '../../../lib/live.ts'
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
 * and the location is the person's. Kept on the device until the backend has it (`acked`), its id
 * made here (docs/decisions/0033-offline-writes.md).
 */
export async function createRegistration(input: NewRegistration, now: Date = new Date()): Promise<Written> {
  // A day still to come is refused here as in firestore.rules (the forms do not offer one).
  if (!isCareDayAllowed(input.day, now)) throw new RangeError('a registration cannot be dated on a day still to come')
  const comment = input.comment.trim()
  return createKept(registrationsPath(input.personId), {
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
}

/** The toasts of a registration: saved, or kept until there is a connection. */
export const registrationMessages = {
  pending: da.registration.pending,
  saved: da.registration.ok,
  queued: da.registration.queued,
  failed: da.registration.fail,
}

/** Registers, with the promise toast; every registration list is read again once the backend has it. */
export function useCreateRegistration() {
  return useKeptWrite(
    (input: NewRegistration) => createRegistration(input),
    registrationMessages,
    registrationKeys.all,
    'a registration could not be written',
  )
}
