import { USERS } from '@bosted/domain/paths'
import { type User, UserSchema } from '@bosted/domain/user'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type Parsed, parseRecords } from '../../../lib/parse-records.ts'
import { staffKeys } from './keys.ts'

/**
 * Staff with access to a location: `users where locations array-contains L`, the constraint the
 * rules test (ADR 0004). Each document is parsed on its own: one that does not fit is left out and counted.
 */
export async function getLocationStaff(locationId: string): Promise<Parsed<User>> {
  const [db, { collection, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(query(collection(db, USERS), where('locations', 'array-contains', locationId)))
  return parseRecords('users', snapshot.docs, (document) => UserSchema.parse({ ...document.data(), id: document.id }))
}

export function locationStaffQueryOptions(locationId: string) {
  return queryOptions({ queryKey: staffKeys.location(locationId), queryFn: () => getLocationStaff(locationId) })
}

export function useLocationStaff(locationId: string) {
  return useQuery(locationStaffQueryOptions(locationId))
}
