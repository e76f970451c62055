import { personPath, userPath } from '@bosted/domain/paths'
import type { Firestore } from 'firebase-admin/firestore'

/**
 * Whether an account is turned off in its documents: `settings.disabled` on users/{uid} (staff) or
 * persons/{uid} (a borger). Such an account gets nothing, whatever its Auth account says.
 */
export async function isAccountDisabled(db: Firestore, uid: string): Promise<boolean> {
  const documents = await db.getAll(db.doc(userPath(uid)), db.doc(personPath(uid)))
  return documents.some((document) => document.exists && document.get('settings.disabled') === true)
}
