import { locationPath } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/** Deletes a location document; its persons and their records stay (admins find and move them). */
export async function deleteLocation(id: string): Promise<void> {
  const [db, { deleteDoc, doc }] = await Promise.all([getDb(), firestoreLite()])
  await deleteDoc(doc(db, locationPath(id)))
}
