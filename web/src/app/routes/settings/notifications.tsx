import { da } from '@bosted/domain/messages/da'
import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Field } from '../../../components/ui/field.tsx'
import { Page } from '../../../components/ui/page.tsx'
import { updateLocationReminder } from '../../../features/location-settings/api/update-location-reminder.ts'
import { refreshLocations } from '../../../features/locations/api/get-locations.ts'
import type { LocationSummary } from '../../../features/locations/locations-store.ts'
import { toastPromise } from '../../../lib/toast.ts'
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
  const save = useMutation({
    mutationFn: (reminderTime: string | null) =>
      toastPromise(updateLocationReminder(location.id, reminderTime), {
        pending: da.location.updatePending,
        resolved: da.location.updateOk,
        rejected: da.location.updateFail,
      }),
    // /daily reads the reminder from the locations list.
    onSuccess: () => refreshLocations(),
    onError: (failure) => console.warn('the reminder time could not be saved', (failure as Error).name),
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
