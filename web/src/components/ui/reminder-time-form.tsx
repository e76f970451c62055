import { da } from '@bosted/domain/messages/da'
import { type FormEvent, type ReactNode, useState } from 'react'
import { Field } from './field.tsx'

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/

type Props = {
  label: string
  /** The stored time, '' for none. */
  initial: string
  canEdit: boolean
  /** Whether a save is under way (the button waits for it). */
  isSaving?: boolean
  /** Shown at the top of the form (a read-only notice, an explanation). */
  children?: ReactNode
  /** 'HH:MM', or null when the field is left empty (no reminder). */
  onSave: (reminderTime: string | null) => void
}

/** A daily reminder time (a location's or a person's): HH:MM or empty, checked before it is saved. */
export function ReminderTimeForm({ label, initial, canEdit, isSaving = false, children, onSave }: Props) {
  const [time, setTime] = useState(initial)
  const [error, setError] = useState<string | undefined>()
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const value = time.trim()
    if (value !== '' && !TIME.test(value)) return setError(da.form.reminderTimeInvalid)
    setError(undefined)
    onSave(value === '' ? null : value)
  }
  return (
    <form className="form" noValidate onSubmit={handleSubmit}>
      {children}
      <Field label={label} error={error}>
        {(control) => (
          <input
            {...control}
            type="time"
            value={time}
            readOnly={!canEdit}
            onChange={(event) => setTime(event.target.value)}
          />
        )}
      </Field>
      {canEdit && (
        <div className="form__actions">
          <button type="submit" className="button button--action" disabled={isSaving}>
            {da.form.save}
          </button>
        </div>
      )}
    </form>
  )
}
