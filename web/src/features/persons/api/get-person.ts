import { personPath } from '@bosted/domain/paths'
import { type Person, PersonSchema } from '@bosted/domain/person'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/**
 * One person, or null when it does not exist or the caller may not read it (the rules deny the
 * read): both mean "no such page" to the user. Other failures throw.
 */
export async function getPerson(personId: string): Promise<Person | null> {
  const [db, { doc, getDoc }] = await Promise.all([getDb(), firestoreLite()])
  try {
    const snapshot = await getDoc(doc(db, personPath(personId)))
    if (!snapshot.exists()) return null
    return PersonSchema.parse({ ...snapshot.data(), id: snapshot.id })
  } catch (error) {
    if ((error as { code?: unknown }).code === 'permission-denied') return null
    throw error
  }
}
