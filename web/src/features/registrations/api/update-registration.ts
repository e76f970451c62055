import type { Answer } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { registrationsPath } from '@bosted/domain/paths'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { registrationKeys } from './keys.ts'

export type RegistrationCorrection = {
  personId: string
  registrationId: string
  answer: Pick<Answer, 'id' | 'text' | 'value' | 'entity'>
  comment: string
  updatedBy: string
}

/** Corrects a registration's answer and comment; who and when go in updatedBy/updatedAt (the rules' terms). */
export async function updateRegistration(input: RegistrationCorrection, now: Date = new Date()): Promise<void> {
  const [db, { deleteField, doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  const comment = input.comment.trim()
  await updateDoc(doc(db, registrationsPath(input.personId), input.registrationId), {
    answerId: input.answer.id,
    text: input.answer.text,
    value: input.answer.value,
    entity: input.answer.entity,
    comment: comment === '' ? deleteField() : comment,
    updatedAt: now.toISOString(),
    updatedBy: input.updatedBy,
  })
}

/** Corrects a registration, with the promise toast; every registration list is read again afterwards. */
export function useUpdateRegistration() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: RegistrationCorrection) =>
      toastPromise(updateRegistration(input), {
        pending: da.registration.updatePending,
        resolved: da.registration.updateOk,
        rejected: da.registration.updateFail,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: registrationKeys.all }),
    onError: reportError('a registration could not be written'),
  })
}
