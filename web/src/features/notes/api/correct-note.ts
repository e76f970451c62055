import { da } from '@bosted/domain/messages/da'
import { notesPath } from '@bosted/domain/paths'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ConcurrentEditError, isConcurrentEdit } from '../../../lib/concurrent-edit.ts'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { correction, type Editor } from '../note-history.ts'
import { noteKeys } from './keys.ts'
import type { StoredNote } from './note-document.ts'

/**
 * Corrects an entry: the earlier text is kept in `revisions` (a care record is never silently
 * rewritten). In a transaction that first checks the entry is still the one the editor corrected:
 * of two corrections at once, the second is refused with ConcurrentEditError ("someone corrected
 * it first") rather than a generic error from the rules.
 */
export async function correctNote(
  note: StoredNote,
  text: string,
  dictated: boolean,
  editor: Editor,
  now: Date = new Date(),
): Promise<void> {
  const [db, { doc, runTransaction }] = await Promise.all([getDb(), firestoreLite()])
  const reference = doc(db, notesPath(note.personId), note.id)
  await runTransaction(db, async (transaction) => {
    const snapshot = await transaction.get(reference)
    const revisions = (snapshot.get('revisions') ?? []) as unknown[]
    const unchanged =
      snapshot.exists() &&
      snapshot.get('deleted') === undefined &&
      snapshot.get('text') === note.text &&
      revisions.length === (note.revisions?.length ?? 0)
    if (!unchanged) throw new ConcurrentEditError('the diary entry')
    transaction.update(reference, correction(note, text, dictated, editor, now))
  })
}

/** Corrects a typed entry with the promise toast (a conflict said as such); the lists are read again. */
export function useCorrectNote(editor: Editor) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ note, text }: { note: StoredNote; text: string }) =>
      toastPromise(correctNote(note, text, false, editor), {
        pending: da.notes.correctPending,
        resolved: da.notes.correctOk,
        rejected: (error) => (isConcurrentEdit(error) ? da.notes.correctConflict : da.notes.correctFail),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noteKeys.all }),
    onError: reportError('a diary entry could not be written'),
  })
}
