import { REGISTRATIONS } from '@bosted/domain/paths'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import type { Parsed } from '../../../lib/parse-records.ts'
import { registrationKeys } from './keys.ts'
import { type StoredRegistration, toRegistrations } from './registration-document.ts'

/**
 * Every registration of a location on a day, in one request whatever the location's size:
 * `collectionGroup('registrations') where locationId == L and day == D` (the rules allow a
 * collection-group list by its locationId, ADR 0004). Oldest first.
 */
export async function getDayRegistrations(locationId: string, day: string): Promise<Parsed<StoredRegistration>> {
  const [db, { collectionGroup, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(
    query(collectionGroup(db, REGISTRATIONS), where('locationId', '==', locationId), where('day', '==', day)),
  )
  const parsed = toRegistrations(snapshot.docs)
  return { ...parsed, items: parsed.items.sort((a, b) => a.createdAt.localeCompare(b.createdAt)) }
}

export function dayRegistrationsQueryOptions(locationId: string, day: string) {
  return queryOptions({
    queryKey: registrationKeys.day(locationId, day),
    queryFn: () => getDayRegistrations(locationId, day),
  })
}

/** A location's registrations on `day`. */
export function useDayRegistrations(locationId: string, day: string) {
  return useQuery(dayRegistrationsQueryOptions(locationId, day))
}
