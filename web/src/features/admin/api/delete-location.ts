import { da } from '@bosted/domain/messages/da'
import { locationPath } from '@bosted/domain/paths'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { adminKeys } from './keys.ts'

/** Deletes a location document; its persons and their records stay (admins find and move them). */
export async function deleteLocation(id: string): Promise<void> {
  const [db, { deleteDoc, doc }] = await Promise.all([getDb(), firestoreLite()])
  await deleteDoc(doc(db, locationPath(id)))
}

/**
 * Deletes the location with a promise-style toast (REQ-FLOW-1; REQ-MSG words no deletion, so the
 * texts are the app's own, as REQ-MSG-6 words an update). `onDeleted` runs first, beside the overview's refresh
 * (the active location and the user's list of locations live outside this feature), then `onDone`
 * runs (the page leaves).
 */
export function useDeleteLocation(
  locationId: string,
  { onDeleted, onDone }: { onDeleted: () => Promise<unknown>; onDone: () => unknown },
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () =>
      toastPromise(deleteLocation(locationId), {
        pending: da.admin.deletePending,
        resolved: da.admin.deleteOk,
        rejected: da.admin.deleteFail,
      }),
    onSuccess: async () => {
      await Promise.all([onDeleted(), queryClient.invalidateQueries({ queryKey: adminKeys.all })])
      await onDone()
    },
    onError: reportError('a location could not be deleted'),
  })
}
