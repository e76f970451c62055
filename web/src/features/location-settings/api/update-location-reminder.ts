import { da } from '@bosted/domain/messages/da'
import { locationPath } from '@bosted/domain/paths'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { invalidateRoots } from '../../../lib/query-roots.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'

/** The location's daily reminder time ('HH:MM'), or null for none; the caller toasts (REQ-MSG-6). */
export async function updateLocationReminder(locationId: string, reminderTime: string | null): Promise<void> {
  const [db, { doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  await updateDoc(doc(db, locationPath(locationId)), {
    'settings.notifications': reminderTime === null ? null : { reminderTime },
  })
}

/**
 * Saves the location's reminder time with the location toasts. /daily reads the reminder from the
 * user's locations list (the locations feature's), which is read again after the change.
 */
export function useUpdateLocationReminder(locationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (reminderTime: string | null) =>
      toastPromise(updateLocationReminder(locationId, reminderTime), {
        pending: da.location.updatePending,
        resolved: da.location.updateOk,
        rejected: da.location.updateFail,
      }),
    onSuccess: () => invalidateRoots(queryClient, ['locations']),
    onError: reportError('the reminder time could not be saved'),
  })
}
