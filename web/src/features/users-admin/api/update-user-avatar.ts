import { da } from '@bosted/domain/messages/da'
import { userPath } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/** Saves (or clears) a colleague's avatar URL on users/{uid}. */
export async function updateUserAvatar(userId: string, avatarUrl: string | null): Promise<void> {
  const [db, { doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  await updateDoc(doc(db, userPath(userId)), { avatarUrl })
}

/**
 * The user update toasts (a colleague's fields, or their picture): promise-style (REQ-FLOW-1), worded
 * as REQ-MSG-1 words a person's update (REQ-MSG has no texts for users).
 */
export const USER_UPDATE_TOASTS = {
  pending: da.user.updatePending,
  resolved: da.user.updateOk,
  rejected: da.user.updateFail,
}
