import { personPath } from '@bosted/domain/paths'
import type { PersonUpdate } from '@bosted/domain/person'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/**
 * SPEC §7's person update: the given fields (dotted paths for nested settings) and nothing else.
 * The caller wraps it in toastPromise(…, PERSON_UPDATE_TOASTS).
 */
export async function updatePerson(personId: string, changes: PersonUpdate): Promise<void> {
  const [db, { doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  await updateDoc(doc(db, personPath(personId)), changes)
}
