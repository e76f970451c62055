import { da } from '@bosted/domain/messages/da'
import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import { Outlet, useParams } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'
import { TabsNav } from '../../../../components/ui/tabs-nav.tsx'
import { useSettingsAccess } from '../../../use-settings-access.ts'

export function Component() {
  const { id = '' } = useParams()
  // The log is for superusers (of the person's location, whom alone they can see) and admins.
  const { isManager } = useSettingsAccess()
  const base = `/person/${encodeURIComponent(id)}/settings`
  return (
    <Page title={da.pages.personSettings} level={2}>
      <TabsNav
        label={da.pages.personSettings}
        items={[
          { to: base, label: da.pages.personSettingsOverview, end: true },
          { to: `${base}/general`, label: da.pages.personSettingsGeneral },
          { to: `${base}/answers`, label: da.pages.personSettingsAnswers },
          { to: `${base}/notifications`, label: da.pages.personSettingsNotifications },
          { to: `${base}/settings`, label: da.pages.personSettingsFeatures },
          ...(isManager ? [{ to: `${base}/access-log`, label: daAccessLog.tab }] : []),
        ]}
      />
      <Outlet />
    </Page>
  )
}
