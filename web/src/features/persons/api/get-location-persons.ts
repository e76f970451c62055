import { PERSONS } from '@bosted/domain/paths'
import { type Person, PersonSchema } from '@bosted/domain/person'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type Parsed, parseRecords } from '../../../lib/parse-records.ts'

/**
 * The persons of a location: `persons where locationId == L`, the constraint the rules test
 * (ADR 0004). Each document is parsed with the domain schema on its own: one that does not fit is
 * left out and counted, the others are shown.
 */
export async function getLocationPersons(locationId: string): Promise<Parsed<Person>> {
  const [db, { collection, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(query(collection(db, PERSONS), where('locationId', '==', locationId)))
  return parseRecords('persons', snapshot.docs, (document) =>
    PersonSchema.parse({ ...document.data(), id: document.id }),
  )
}
