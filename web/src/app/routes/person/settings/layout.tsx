import { da } from '@bosted/domain/messages/da'
import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import { Outlet, useParams } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'
import { TabsNav } from '../../../../components/ui/tabs-nav.tsx'
import { paths } from '../../../../lib/paths.ts'
import { useSettingsAccess } from '../../../use-settings-access.ts'

export function Component() {
  const { id = '' } = useParams()
  // The log is for superusers (of the person's location, whom alone they can see) and admins.
  const { isManager } = useSettingsAccess()
  return (
    <Page title={da.pages.personSettings} level={2}>
      <TabsNav
        label={da.pages.personSettings}
        items={[
          { to: paths.person.settings.overview(id), label: da.pages.personSettingsOverview, end: true },
          { to: paths.person.settings.general(id), label: da.pages.personSettingsGeneral },
          { to: paths.person.settings.answers(id), label: da.pages.personSettingsAnswers },
          { to: paths.person.settings.notifications(id), label: da.pages.personSettingsNotifications },
          { to: paths.person.settings.features(id), label: da.pages.personSettingsFeatures },
          ...(isManager ? [{ to: paths.person.settings.accessLog(id), label: daAccessLog.tab }] : []),
        ]}
      />
      <Outlet />
    </Page>
  )
}
