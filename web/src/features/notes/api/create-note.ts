import { isCareDayAllowed } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { notesPath } from '@bosted/domain/paths'
import { createKept, useKeptWrite } from '../../../lib/kept-writes.ts'
import type { Written } from '../../../lib/live.ts'
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
 * the location is the person's. Kept on the device until the backend has it (`acked`), its id made
 * here (docs/decisions/0033-offline-writes.md).
 */
export async function createNote(input: NewNote, now: Date = new Date()): Promise<Written> {
  // A day still to come is refused here as in firestore.rules (the forms do not offer one).
  if (!isCareDayAllowed(input.day, now)) throw new RangeError('a diary entry cannot be dated on a day still to come')
  return createKept(notesPath(input.personId), {
    text: input.text.trim(),
    day: input.day,
    source: input.source,
    createdAt: now.toISOString(),
    createdBy: input.createdBy,
    authorName: input.authorName,
    personId: input.personId,
    locationId: input.locationId,
  })
}

const messages = { pending: da.notes.pending, saved: da.notes.ok, queued: da.notes.queued, failed: da.notes.fail }

/** Writes an entry with the promise toast; every diary list and count is read again once the backend has it. */
export function useCreateNote() {
  return useKeptWrite(
    (input: NewNote) => createNote(input),
    messages,
    noteKeys.all,
    'a diary entry could not be written',
  )
}
