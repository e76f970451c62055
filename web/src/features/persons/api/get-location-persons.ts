import { PERSONS } from '@bosted/domain/paths'
import { type Person, PersonSchema } from '@bosted/domain/person'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/**
 * The persons of a location: `persons where locationId == L`, the constraint the rules test
 * (ADR 0004). Every document is parsed with the domain schema; a failure throws.
 */
export async function getLocationPersons(locationId: string): Promise<Person[]> {
  const [db, { collection, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(query(collection(db, PERSONS), where('locationId', '==', locationId)))
  return snapshot.docs.map((document) => PersonSchema.parse({ ...document.data(), id: document.id }))
}
