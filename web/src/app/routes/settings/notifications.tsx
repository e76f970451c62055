import { da } from '@bosted/domain/messages/da'
import { Page } from '../../../components/ui/page.tsx'
import { ReminderTimeForm } from '../../../components/ui/reminder-time-form.tsx'
import { useUpdateLocationReminder } from '../../../features/location-settings/api/update-location-reminder.ts'
import type { LocationSummary } from '../../../features/locations/locations-store.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'
import { useSettingsAccess } from '../../use-settings-access.ts'

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
        <LocationReminder key={location.id} location={location} canEdit={isManager} />
      )}
    </Page>
  )
}

function LocationReminder({ location, canEdit }: { location: LocationSummary; canEdit: boolean }) {
  const save = useUpdateLocationReminder(location.id)
  return (
    <ReminderTimeForm
      label={da.personSettings.locationReminder}
      initial={location.reminderTime ?? ''}
      canEdit={canEdit}
      isSaving={save.isPending}
      onSave={(reminderTime) => save.mutate(reminderTime)}
    >
      {!canEdit && <p className="notice">{da.form.readOnly}</p>}
      <p className="muted">{da.personSettings.locationReminderIntro}</p>
    </ReminderTimeForm>
  )
}
