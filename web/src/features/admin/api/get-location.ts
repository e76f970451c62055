import { type Location, LocationSchema } from '@bosted/domain/location'
import { locationPath } from '@bosted/domain/paths'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { adminKeys } from './keys.ts'

/**
 * One location with every default filled in, or null when it does not exist. The route's id may span
 * several path segments (REQ-ROUTE-14); a Firestore document id never does, so such a location is none.
 */
export async function getLocation(id: string): Promise<Location | null> {
  if (id.includes('/')) return null
  const [db, { doc, getDoc }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDoc(doc(db, locationPath(id)))
  return snapshot.exists() ? LocationSchema.parse({ ...snapshot.data(), id: snapshot.id }) : null
}

export function adminLocationQueryOptions(locationId: string) {
  return queryOptions({ queryKey: adminKeys.location(locationId), queryFn: () => getLocation(locationId) })
}

/** The location `locationId` as admins edit it; nothing is read while the id is empty. */
export function useAdminLocation(locationId: string) {
  return useQuery({ ...adminLocationQueryOptions(locationId), enabled: locationId !== '' })
}
