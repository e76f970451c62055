import { notesPath } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type StoredNote, toNote } from './note-document.ts'

/**
 * One person's diary entries from `from` to `to` (days, both included), newest first, read from their
 * own subcollection: what a person may list of their own (the rules' canReadCare), no location needed.
 */
export async function getPersonNotes(personId: string, from: string, to: string): Promise<StoredNote[]> {
  const [db, { collection, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(
    query(collection(db, notesPath(personId)), where('day', '>=', from), where('day', '<=', to)),
  )
  return snapshot.docs.map(toNote).sort((a, b) => b.day.localeCompare(a.day) || b.createdAt.localeCompare(a.createdAt))
}
