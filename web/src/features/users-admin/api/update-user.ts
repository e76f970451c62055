import { userPath } from '@bosted/domain/paths'
import type { UserRole } from '@bosted/domain/user'
import { apiSend } from '../../../lib/api-client.ts'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

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
