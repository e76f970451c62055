import { personPath } from '@bosted/domain/paths'
import { type Person, PersonSchema } from '@bosted/domain/person'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { personKeys } from './keys.ts'

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

export function personQueryOptions(personId: string) {
  return queryOptions({ queryKey: personKeys.one(personId), queryFn: () => getPerson(personId) })
}

/** The person `personId`; `data` is null when there is no such person for this caller. */
export function usePerson(personId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...personQueryOptions(personId), ...options })
}
