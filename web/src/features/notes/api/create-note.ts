import { isCareDayAllowed } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { notesPath } from '@bosted/domain/paths'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { noteKeys } from './keys.ts'

export type NewNote = {
  personId: string
  locationId: string
  day: string
  text: string
  source: 'keyboard' | 'speech'
  createdBy: string
  authorName: string
}

/**
 * Writes a diary entry with exactly the fields firestore.rules allows; the author is the caller and
 * the location is the person's. The caller wraps it in toastPromise(…, da.notes).
 */
export async function createNote(input: NewNote, now: Date = new Date()): Promise<string> {
  // A day still to come is refused here as in firestore.rules (the forms do not offer one).
  if (!isCareDayAllowed(input.day, now)) throw new RangeError('a diary entry cannot be dated on a day still to come')
  const [db, { addDoc, collection }] = await Promise.all([getDb(), firestoreLite()])
  const reference = await addDoc(collection(db, notesPath(input.personId)), {
    text: input.text.trim(),
    day: input.day,
    source: input.source,
    createdAt: now.toISOString(),
    createdBy: input.createdBy,
    authorName: input.authorName,
    personId: input.personId,
    locationId: input.locationId,
  })
  return reference.id
}

/** Writes an entry with the promise toast; every diary list and count is read again afterwards. */
export function useCreateNote() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: NewNote) =>
      toastPromise(createNote(input), { pending: da.notes.pending, resolved: da.notes.ok, rejected: da.notes.fail }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noteKeys.all }),
    onError: reportError('a diary entry could not be written'),
  })
}
