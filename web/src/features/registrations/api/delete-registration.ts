import { registrationsPath } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/** Deletes a registration (its author, a superuser of the location or an admin, as the rules decide). */
export async function deleteRegistration(personId: string, registrationId: string): Promise<void> {
  const [db, { deleteDoc, doc }] = await Promise.all([getDb(), firestoreLite()])
  await deleteDoc(doc(db, registrationsPath(personId), registrationId))
}
