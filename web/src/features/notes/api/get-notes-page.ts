import { readQuery } from '../../../lib/read-query.ts'
import { type StoredNote, toNotes } from './note-document.ts'
import { type NotesQuery, notesQuerySpec } from './notes-query.ts'

export type NotesPage = {
  notes: StoredNote[]
  /** Entries of this page that did not fit their schema: left out, counted for the staff notice. */
  skipped: number
  /** Where the next page starts, or null when this was the last. */
  next: NotesQuery['after']
}

/**
 * One page of a location's diary entries (optionally some persons'), newest first, in one request:
 * `collectionGroup('notes') where locationId == L [and personId in P] and from <= day <= to`.
 */
export async function getNotesPage(query: NotesQuery): Promise<NotesPage> {
  const docs = await readQuery(notesQuerySpec(query))
  const documents = docs.slice(0, query.limit)
  const last = documents.at(-1)
  const next =
    docs.length > query.limit && last !== undefined
      ? { day: String(last.get('day')), createdAt: String(last.get('createdAt')), path: last.ref.path }
      : null
  const { items, skipped } = toNotes(documents)
  return { notes: items, skipped, next }
}
