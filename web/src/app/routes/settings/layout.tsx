import { da } from '@bosted/domain/messages/da'
import { Outlet } from 'react-router-dom'
import { Page } from '../../../components/ui/page.tsx'
import { TabsNav } from '../../../components/ui/tabs-nav.tsx'
import { paths } from '../../../lib/paths.ts'

export function Component() {
  return (
    <Page title={da.pages.settings}>
      <TabsNav
        label={da.pages.settings}
        items={[
          { to: paths.settings.persons, label: da.pages.settingsPersons },
          { to: paths.settings.users, label: da.pages.settingsUsers },
          { to: paths.settings.answers, label: da.pages.settingsAnswers },
          { to: paths.settings.notifications, label: da.pages.settingsNotifications },
        ]}
      />
      <Outlet />
    </Page>
  )
}
