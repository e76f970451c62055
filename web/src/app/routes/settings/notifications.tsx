import { da } from '@bosted/domain/messages/da'
import { type FormEvent, useState } from 'react'
import { Field } from '../../../components/ui/field.tsx'
import { Page } from '../../../components/ui/page.tsx'
import { useUpdateLocationReminder } from '../../../features/location-settings/api/update-location-reminder.ts'
import { type LocationSummary, locations } from '../../../features/locations/locations-store.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'
import { useSettingsAccess } from '../../use-settings-access.ts'

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/

/** Notifikationer: the active location's daily reminder time (HH:MM, or none). */
export function Component() {
  const { location, loaded, isManager } = useSettingsAccess()
  return (
    <Page title={da.pages.settingsNotifications} level={2}>
      {!loaded ? (
        <RouteLoading />
      ) : location === null ? (
        <p className="notice">{da.settingsList.noLocation}</p>
      ) : (
        <ReminderForm key={location.id} location={location} canEdit={isManager} />
      )}
    </Page>
  )
}

function ReminderForm({ location, canEdit }: { location: LocationSummary; canEdit: boolean }) {
  const [time, setTime] = useState(location.reminderTime ?? '')
  const [error, setError] = useState<string | undefined>()
  const save = useUpdateLocationReminder(location.id, {
    onSaved: (reminderTime) => {
      // /daily reads the reminder from the active location.
      const entry = locations.list.find((candidate) => candidate.id === location.id)
      if (entry !== undefined) entry.reminderTime = reminderTime
    },
  })
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const value = time.trim()
    if (value !== '' && !TIME.test(value)) return setError(da.form.reminderTimeInvalid)
    setError(undefined)
    save.mutate(value === '' ? null : value)
  }
  return (
    <form className="form" noValidate onSubmit={handleSubmit}>
      {!canEdit && <p className="notice">{da.form.readOnly}</p>}
      <p className="muted">{da.personSettings.locationReminderIntro}</p>
      <Field label={da.personSettings.locationReminder} error={error}>
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
          <button type="submit" className="button button--action" disabled={save.isPending}>
            {da.form.save}
          </button>
        </div>
      )}
    </form>
  )
}
