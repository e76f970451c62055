import { notesPath } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { correction, type Editor } from '../note-history.ts'
import type { StoredNote } from './note-document.ts'

/** Corrects an entry: the earlier text is kept in `revisions` (a care record is never silently rewritten). */
export async function correctNote(
  note: StoredNote,
  text: string,
  dictated: boolean,
  editor: Editor,
  now: Date = new Date(),
): Promise<void> {
  const [db, { doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  await updateDoc(doc(db, notesPath(note.personId), note.id), correction(note, text, dictated, editor, now))
}
