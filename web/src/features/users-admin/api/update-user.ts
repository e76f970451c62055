import { userPath } from '@bosted/domain/paths'
import type { User, UserRole } from '@bosted/domain/user'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiSend } from '../../../lib/api-client.ts'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { staffKeys } from './keys.ts'
import { USER_UPDATE_TOASTS } from './update-user-avatar.ts'

export type UserChanges = { firstName: string; lastName: string; jobRole: string; disabled: boolean }

/** What superusers (their employees) and admins may change of a colleague; the caller toasts. */
export async function updateUser(userId: string, changes: UserChanges): Promise<void> {
  const [db, { doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  await updateDoc(doc(db, userPath(userId)), {
    firstName: changes.firstName,
    lastName: changes.lastName,
    jobRole: changes.jobRole,
    'settings.disabled': changes.disabled,
  })
}

/** The api's role call (admins only): the document's userRole and the admin claim together. */
export async function setUserRole(userId: string, userRole: UserRole): Promise<void> {
  await apiSend(`/user/${encodeURIComponent(userId)}/role`, {
    method: 'PUT',
    body: { userRole, admin: userRole === 'admin' },
  })
}

/**
 * Saves a colleague as the edit dialog left them: their fields, and (admins only, `canChangeRole`)
 * their role when it changed. Every staff list follows.
 */
export function useUpdateUser({ canChangeRole }: { canChangeRole: boolean }) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ user, values }: { user: User; values: UserChanges & { userRole: UserRole } }) => {
      const work = async () => {
        await updateUser(user.id, values)
        const before = user.userRole === 'user' ? 'employee' : user.userRole
        if (canChangeRole && values.userRole !== before) await setUserRole(user.id, values.userRole)
      }
      return toastPromise(work(), USER_UPDATE_TOASTS)
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
    onError: reportError('a user could not be updated'),
  })
}
