import { registrationsPath } from '@bosted/domain/paths'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import type { Parsed } from '../../../lib/parse-records.ts'
import { registrationKeys } from './keys.ts'
import { type StoredRegistration, toRegistrations } from './registration-document.ts'

/** A person's registrations from `from` to `to` (days, both included), oldest first; misfits left out and counted. */
export async function getPersonRegistrations(
  personId: string,
  from: string,
  to: string,
): Promise<Parsed<StoredRegistration>> {
  const [db, { collection, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(
    query(collection(db, registrationsPath(personId)), where('day', '>=', from), where('day', '<=', to)),
  )
  const parsed = toRegistrations(snapshot.docs)
  parsed.items.sort((a, b) => a.day.localeCompare(b.day) || a.createdAt.localeCompare(b.createdAt))
  return parsed
}

export function personRegistrationsQueryOptions(personId: string, from: string, to: string) {
  return queryOptions({
    queryKey: registrationKeys.person(personId, from, to),
    queryFn: () => getPersonRegistrations(personId, from, to),
  })
}

/** A person's registrations from `from` to `to`. */
export function usePersonRegistrations(personId: string, from: string, to: string) {
  return useQuery(personRegistrationsQueryOptions(personId, from, to))
}
