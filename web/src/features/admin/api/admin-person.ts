import { da } from '@bosted/domain/messages/da'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiSend } from '../../../lib/api-client.ts'
import { invalidateRoots } from '../../../lib/query-roots.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'

/**
 * Moves a person to another location through the api (admin only): the person's locationId, both
 * locations' `persons` in one transaction, and the location of the person's registrations and notes,
 * so the new location's staff see the history and the old one's no longer do.
 */
export async function movePerson(personId: string, locationId: string): Promise<void> {
  await apiSend(`/person/${encodeURIComponent(personId)}/location`, { method: 'PUT', body: { locationId } })
}

/** Turns a person's sign-in off or on: the Auth account and `settings.disabled` (admin only, api). */
export async function setPersonSignIn(personId: string, disabled: boolean): Promise<void> {
  await apiSend(`/person/${encodeURIComponent(personId)}/disabled`, { method: 'PUT', body: { disabled } })
}

/** Everything that lists persons or their records follows a move or a sign-in change. */
function useRefreshPersonData() {
  const queryClient = useQueryClient()
  return () => invalidateRoots(queryClient, ['persons', 'admin', 'registrations', 'notes'])
}

export function useMovePerson(personId: string) {
  const refresh = useRefreshPersonData()
  return useMutation({
    mutationFn: (locationId: string) =>
      toastPromise(movePerson(personId, locationId), {
        pending: da.admin.movePending,
        resolved: da.admin.moveOk,
        rejected: da.admin.moveFail,
      }),
    onSettled: refresh,
    onError: reportError('a person could not be moved'),
  })
}

export function useSetPersonSignIn(personId: string) {
  const refresh = useRefreshPersonData()
  return useMutation({
    mutationFn: (disabled: boolean) =>
      toastPromise(setPersonSignIn(personId, disabled), {
        pending: da.admin.disablePending,
        resolved: da.admin.disableOk,
        rejected: da.admin.disableFail,
      }),
    onSettled: refresh,
    onError: reportError("a person's sign-in could not be changed"),
  })
}
