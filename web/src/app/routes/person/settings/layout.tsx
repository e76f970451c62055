import { da } from '@bosted/domain/messages/da'
import { Outlet, useParams } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'
import { TabsNav } from '../../../../components/ui/tabs-nav.tsx'

export function Component() {
  const { id = '' } = useParams()
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
        ]}
      />
      <Outlet />
    </Page>
  )
}
