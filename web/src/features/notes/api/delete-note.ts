import { notesPath } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { deletionMarker, type Editor } from '../note-history.ts'
import type { StoredNote } from './note-document.ts'

/** Deletes an entry as the rules allow it: a visible marker with who, when and why; nothing is erased. */
export async function deleteNote(
  note: StoredNote,
  reason: string,
  editor: Editor,
  now: Date = new Date(),
): Promise<void> {
  const [db, { doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  await updateDoc(doc(db, notesPath(note.personId), note.id), { deleted: deletionMarker(reason, editor, now) })
}
