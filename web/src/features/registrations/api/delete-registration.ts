import { da } from '@bosted/domain/messages/da'
import { registrationsPath } from '@bosted/domain/paths'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { registrationKeys } from './keys.ts'

/** Deletes a registration (its author, a superuser of the location or an admin, as the rules decide). */
export async function deleteRegistration(personId: string, registrationId: string): Promise<void> {
  const [db, { deleteDoc, doc }] = await Promise.all([getDb(), firestoreLite()])
  await deleteDoc(doc(db, registrationsPath(personId), registrationId))
}

/** Deletes a registration, with the promise toast; every registration list is read again afterwards. */
export function useDeleteRegistration() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ personId, registrationId }: { personId: string; registrationId: string }) =>
      toastPromise(deleteRegistration(personId, registrationId), {
        pending: da.registration.deletePending,
        resolved: da.registration.deleteOk,
        rejected: da.registration.deleteFail,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: registrationKeys.all }),
    onError: reportError('a registration could not be written'),
  })
}
