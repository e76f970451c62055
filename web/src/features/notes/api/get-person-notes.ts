import { notesPath } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import type { Parsed } from '../../../lib/parse-records.ts'
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
