import { type Note, NoteSchema } from '@bosted/domain/answer'
import { type Parsed, parseRecords } from '../../../lib/parse-records.ts'

/** A diary entry as stored, with its document id. */
export type StoredNote = Note & { id: string }

type Snapshot = { id: string; data(): Record<string, unknown> }

/** Parses a note document with the domain schema; throws on a document that does not fit. */
export function toNote(snapshot: Snapshot): StoredNote {
  return { ...NoteSchema.parse(snapshot.data()), id: snapshot.id }
}

/** A list of note documents, each parsed on its own (one that does not fit is left out and counted). */
export function toNotes(snapshots: readonly Snapshot[]): Parsed<StoredNote> {
  return parseRecords('notes', snapshots, toNote)
}
