import { NoteDeletionReasonSchema, NoteTextSchema } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useState } from 'react'
import { Dialog } from '../../../components/ui/dialog.tsx'
import { Field } from '../../../components/ui/field.tsx'
import type { StoredNote } from '../api/note-document.ts'

type CorrectProps = { note: StoredNote | null; onSave: (note: StoredNote, text: string) => void; onClose: () => void }

/** Correcting an entry: the new text; the earlier one is kept (said in the dialog). */
export function CorrectNoteDialog({ note, onSave, onClose }: CorrectProps) {
  return (
    <Dialog title={da.notes.correctTitle} isOpen={note !== null} onClose={onClose}>
      {note !== null && (
        <TextForm
          key={`${note.personId}/${note.id}`}
          label={da.notes.text}
          hint={da.notes.correctHint}
          initial={note.text}
          submit={da.notes.saveCorrection}
          validate={(text) => {
            const parsed = NoteTextSchema.safeParse(text)
            if (!parsed.success) return parsed.error.issues[0]?.message ?? da.notes.textRequired
            return parsed.data === note.text.trim() ? da.notes.unchanged : null
          }}
          onSubmit={(text) => onSave(note, text)}
          onCancel={onClose}
          rows={8}
        />
      )}
    </Dialog>
  )
}

type DeleteProps = {
  note: StoredNote | null
  onDelete: (note: StoredNote, reason: string) => void
  onClose: () => void
}

/** Deleting an entry: a reason is required, and the marker with it takes the text's place. */
export function DeleteNoteDialog({ note, onDelete, onClose }: DeleteProps) {
  return (
    <Dialog title={da.notes.deleteTitle} isOpen={note !== null} onClose={onClose}>
      {note !== null && (
        <TextForm
          key={`${note.personId}/${note.id}`}
          label={da.notes.reason}
          hint={da.notes.deleteHint}
          initial=""
          submit={da.notes.confirmDelete}
          isDanger
          validate={(text) => {
            const parsed = NoteDeletionReasonSchema.safeParse(text)
            return parsed.success ? null : (parsed.error.issues[0]?.message ?? da.notes.reasonRequired)
          }}
          onSubmit={(reason) => onDelete(note, reason)}
          onCancel={onClose}
          rows={3}
        />
      )}
    </Dialog>
  )
}

type TextFormProps = {
  label: string
  hint: string
  initial: string
  submit: string
  isDanger?: boolean
  rows: number
  validate: (text: string) => string | null
  onSubmit: (text: string) => void
  onCancel: () => void
}

/** Field + the domain's schema (in `validate`); not react-hook-form, which would take /notes past its budget. */
function TextForm({
  label,
  hint,
  initial,
  submit,
  isDanger = false,
  rows,
  validate,
  onSubmit,
  onCancel,
}: TextFormProps) {
  const [text, setText] = useState(initial)
  const [error, setError] = useState<string | null>(null)
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const problem = validate(text)
    setError(problem)
    if (problem === null) onSubmit(text.trim())
  }
  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <Field label={label} hint={hint} error={error ?? undefined}>
        {(control) => (
          <textarea {...control} rows={rows} value={text} onChange={(event) => setText(event.target.value)} />
        )}
      </Field>
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {da.notes.cancel}
        </button>
        <button type="submit" className={`button ${isDanger ? 'button--danger' : 'button--primary'}`}>
          {submit}
        </button>
      </div>
    </form>
  )
}
