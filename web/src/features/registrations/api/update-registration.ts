import type { Answer } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { registrationsPath } from '@bosted/domain/paths'
import { updateKept, useKeptWrite } from '../../../lib/kept-writes.ts'
import type { Written } from '../../../lib/live.ts'
import { registrationKeys } from './keys.ts'

export type RegistrationCorrection = {
  personId: string
  registrationId: string
  answer: Pick<Answer, 'id' | 'text' | 'value' | 'entity'>
  comment: string
  updatedBy: string
}

/**
 * Corrects a registration's answer and comment; who and when go in updatedBy/updatedAt (the rules'
 * terms), the time the correction was made here, also when it reaches the backend later. Kept on the
 * device as a new registration is.
 */
export async function updateRegistration(input: RegistrationCorrection, now: Date = new Date()): Promise<Written> {
  const comment = input.comment.trim()
  return updateKept(
    `${registrationsPath(input.personId)}/${input.registrationId}`,
    {
      answerId: input.answer.id,
      text: input.answer.text,
      value: input.answer.value,
      entity: input.answer.entity,
      ...(comment === '' ? {} : { comment }),
      updatedAt: now.toISOString(),
      updatedBy: input.updatedBy,
    },
    comment === '' ? ['comment'] : [],
  )
}

/** The toasts of a correction: saved, or kept until there is a connection. */
export const correctionMessages = {
  pending: da.registration.updatePending,
  saved: da.registration.updateOk,
  queued: da.registration.updateQueued,
  failed: da.registration.updateFail,
}

/** Corrects a registration, with the promise toast; every registration list is read again once the backend has it. */
export function useUpdateRegistration() {
  return useKeptWrite(
    (input: RegistrationCorrection) => updateRegistration(input),
    correctionMessages,
    registrationKeys.all,
    'a registration could not be written',
  )
}
