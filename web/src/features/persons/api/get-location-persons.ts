import { PERSONS } from '@bosted/domain/paths'
import { type Person, PersonSchema } from '@bosted/domain/person'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type Parsed, parseRecords } from '../../../lib/parse-records.ts'
import { personKeys } from './keys.ts'

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

export function locationPersonsQueryOptions(locationId: string) {
  return queryOptions({ queryKey: personKeys.location(locationId), queryFn: () => getLocationPersons(locationId) })
}

/** The persons of `locationId`; pass `enabled: false` while no location is chosen. */
export function useLocationPersons(locationId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...locationPersonsQueryOptions(locationId), ...options })
}
