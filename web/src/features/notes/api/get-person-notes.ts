import { notesPath } from '@bosted/domain/paths'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import type { Parsed } from '../../../lib/parse-records.ts'
import { noteKeys } from './keys.ts'
import { type StoredNote, toNotes } from './note-document.ts'

/**
 * One person's diary entries from `from` to `to` (days, both included), newest first, read from their
 * own subcollection: what a person may list of their own (the rules' canReadCare), no location needed.
 */
export async function getPersonNotes(personId: string, from: string, to: string): Promise<Parsed<StoredNote>> {
  const [db, { collection, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(
    query(collection(db, notesPath(personId)), where('day', '>=', from), where('day', '<=', to)),
  )
  const parsed = toNotes(snapshot.docs)
  parsed.items.sort((a, b) => b.day.localeCompare(a.day) || b.createdAt.localeCompare(a.createdAt))
  return parsed
}

export function personNotesQueryOptions(personId: string, from: string, to: string) {
  return queryOptions({
    queryKey: noteKeys.person(personId, from, to),
    queryFn: () => getPersonNotes(personId, from, to),
  })
}

/** A person's own diary entries from `from` to `to`. */
export function usePersonNotes(personId: string, from: string, to: string) {
  return useQuery(personNotesQueryOptions(personId, from, to))
}
