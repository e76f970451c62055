import { NOTE_MAX_REVISIONS, type NoteDeletion, type NoteRevision } from '@bosted/domain/answer'
import type { StoredNote } from './api/note-document.ts'

export type Editor = { id: string; name: string }

/**
 * A correction: the new text, and the earlier one appended to `revisions` with who replaced it when
 * (firestore.rules checks the appended entry equals the stored text). Dictating any part of the new
 * text makes the entry a dictated one; a dictated entry stays one.
 */
export function correction(
  note: StoredNote,
  text: string,
  dictated: boolean,
  editor: Editor,
  now: Date,
): { text: string; source: StoredNote['source']; revisions: NoteRevision[] } {
  const earlier: NoteRevision = { text: note.text, at: now.toISOString(), by: editor.id, byName: editor.name }
  return {
    text: text.trim(),
    source: dictated ? 'speech' : note.source,
    revisions: [...(note.revisions ?? []), earlier],
  }
}

/** Whether an entry can take one more correction (firestore.rules keeps at most NOTE_MAX_REVISIONS earlier texts). */
export const hasCorrectionsLeft = (note: StoredNote): boolean => (note.revisions?.length ?? 0) < NOTE_MAX_REVISIONS

/** The marker that takes a deleted entry's place: who, when and why (the text itself is kept). */
export function deletionMarker(reason: string, editor: Editor, now: Date): NoteDeletion {
  return { at: now.toISOString(), by: editor.id, byName: editor.name, reason: reason.trim() }
}

/** The versions of an entry, newest first: the current text, then each earlier one with who replaced it. */
export function versions(note: StoredNote): { text: string; replacedAt: string | null; replacedBy: string | null }[] {
  const revisions = note.revisions ?? []
  const earlier = revisions
    .map((revision) => ({ text: revision.text, replacedAt: revision.at, replacedBy: revision.byName }))
    .reverse()
  return [{ text: note.text, replacedAt: null, replacedBy: null }, ...earlier]
}

/** The last correction of an entry, if any: shown as "Rettet {tid} af {navn}". */
export const lastCorrection = (note: StoredNote): NoteRevision | null => note.revisions?.at(-1) ?? null
