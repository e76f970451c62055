import { da } from '@bosted/domain/messages/da'
import { useParams } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'
import { ReminderTimeForm } from '../../../../components/ui/reminder-time-form.tsx'
import { usePersonSettings } from '../../../../features/persons/use-person-settings.ts'
import { useSettingsAccess } from '../../../use-settings-access.ts'

/** Notifikationer: the person's own daily reminder time; empty uses the location's. */
export function Component() {
  const { id = '' } = useParams()
  const { person, canEdit, save } = usePersonSettings(id, useSettingsAccess())
  return (
    <Page title={da.pages.personSettingsNotifications} level={3}>
      {!canEdit && <p className="notice">{da.form.readOnly}</p>}
      {person !== null && (
        <ReminderTimeForm
          key={id}
          label={da.form.reminderTime}
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
