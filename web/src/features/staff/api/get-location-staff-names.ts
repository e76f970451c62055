import { displayName } from '@bosted/domain/names'
import { USERS } from '@bosted/domain/paths'
import { UserSchema } from '@bosted/domain/user'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { parseRecords } from '../../../lib/parse-records.ts'
import { staffKeys } from './keys.ts'

/**
 * The names of a location's staff (`users where locations array-contains L`, the constraint the
 * rules test), keyed by uid: who made a registration. Read once per location and kept.
 */
export async function getLocationStaffNames(locationId: string): Promise<Map<string, string>> {
  const [db, { collection, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(query(collection(db, USERS), where('locations', 'array-contains', locationId)))
  // A staff document that does not fit is left out (its author shows without a name).
  const { items } = parseRecords('users', snapshot.docs, (document) =>
    UserSchema.parse({ ...document.data(), id: document.id }),
  )
  return new Map(items.map((user) => [user.id, displayName(user)]))
}

/** Names change rarely: read once per location and kept ten minutes. */
const STAFF_NAMES_STALE_MS = 10 * 60_000

export function staffNamesQueryOptions(locationId: string) {
  return queryOptions({
    queryKey: staffKeys.names(locationId),
    queryFn: () => getLocationStaffNames(locationId),
    staleTime: STAFF_NAMES_STALE_MS,
  })
}

/**
 * The staff's names of a location, read only when `enabled` (registrations carry their author's
 * name; only older ones without it need this read, and a missing name is no failure).
 */
export function useStaffNames(locationId: string, { enabled }: { enabled: boolean }) {
  return useQuery({ ...staffNamesQueryOptions(locationId), enabled })
}
