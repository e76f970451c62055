import { da } from '@bosted/domain/messages/da'
import { notesPath } from '@bosted/domain/paths'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { deletionMarker, type Editor } from '../note-history.ts'
import { noteKeys } from './keys.ts'
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

/** Deletes an entry (a marker) with the promise toast; the lists are read again. */
export function useDeleteNote(editor: Editor) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ note, reason }: { note: StoredNote; reason: string }) =>
      toastPromise(deleteNote(note, reason, editor), {
        pending: da.notes.deletePending,
        resolved: da.notes.deleteOk,
        rejected: da.notes.deleteFail,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noteKeys.all }),
    onError: reportError('a diary entry could not be written'),
  })
}
