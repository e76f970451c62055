import { NOTES } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type StoredNote, toNotes } from './note-document.ts'
import { type NotesQuery, notesQueryParts } from './notes-query.ts'

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
  const [db, lite] = await Promise.all([getDb(), firestoreLite()])
  const { collectionGroup, documentId, getDocs, limit, orderBy, query: build, startAfter, where } = lite
  const constraints = notesQueryParts(query).map((part) => {
    if (part.kind === 'where') return where(part.field, part.op, part.value)
    if (part.kind === 'orderBy') return orderBy(part.field === '__name__' ? documentId() : part.field, part.direction)
    if (part.kind === 'startAfter') return startAfter(...part.values)
    return limit(part.value)
  })
  const snapshot = await getDocs(build(collectionGroup(db, NOTES), ...constraints))
  const documents = snapshot.docs.slice(0, query.limit)
  const last = documents.at(-1)
  const next =
    snapshot.docs.length > query.limit && last !== undefined
      ? { day: String(last.get('day')), createdAt: String(last.get('createdAt')), path: last.ref.path }
      : null
  const { items, skipped } = toNotes(documents)
  return { notes: items, skipped, next }
}
