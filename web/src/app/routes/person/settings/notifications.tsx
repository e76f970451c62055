import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useState } from 'react'
import { useParams } from 'react-router-dom'
import { Field } from '../../../../components/ui/field.tsx'
import { Page } from '../../../../components/ui/page.tsx'
import { usePersonSettings } from '../../../../features/persons/use-person-settings.ts'
import { useSettingsAccess } from '../../../use-settings-access.ts'

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/

/** Notifikationer: the person's own daily reminder time; empty uses the location's. */
export function Component() {
  const { id = '' } = useParams()
  const { person, canEdit, save } = usePersonSettings(id, useSettingsAccess())
  return (
    <Page title={da.pages.personSettingsNotifications} level={3}>
      {!canEdit && <p className="notice">{da.form.readOnly}</p>}
      {person !== null && (
        <ReminderForm
          key={id}
          initial={person.settings.notifications?.reminderTime ?? ''}
          canEdit={canEdit}
          onSave={(reminderTime) =>
            save.mutate({ 'settings.notifications': reminderTime === null ? null : { reminderTime } })
          }
        />
      )}
    </Page>
  )
}

function ReminderForm({
  initial,
  canEdit,
  onSave,
}: {
  initial: string
  canEdit: boolean
  onSave: (reminderTime: string | null) => void
}) {
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
      <Field label={da.form.reminderTime} error={error}>
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
          <button type="submit" className="button button--action">
            {da.form.save}
          </button>
        </div>
      )}
    </form>
  )
}
