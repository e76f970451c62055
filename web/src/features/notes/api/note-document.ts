import { type Note, NoteSchema } from '@bosted/domain/answer'

/** A diary entry as stored, with its document id. */
export type StoredNote = Note & { id: string }

type Snapshot = { id: string; data(): Record<string, unknown> }

/** Parses a note document with the domain schema; throws on a document that does not fit. */
export function toNote(snapshot: Snapshot): StoredNote {
  return { ...NoteSchema.parse(snapshot.data()), id: snapshot.id }
}
