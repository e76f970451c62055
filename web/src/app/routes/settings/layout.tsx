import { da } from '@bosted/domain/messages/da'
import { Outlet } from 'react-router-dom'
import { Page } from '../../../components/ui/page.tsx'
import { TabsNav } from '../../../components/ui/tabs-nav.tsx'

export function Component() {
  return (
    <Page title={da.pages.settings}>
      <TabsNav
        label={da.pages.settings}
        items={[
          { to: '/settings/persons', label: da.pages.settingsPersons },
          { to: '/settings/users', label: da.pages.settingsUsers },
          { to: '/settings/answers', label: da.pages.settingsAnswers },
          { to: '/settings/notifications', label: da.pages.settingsNotifications },
        ]}
      />
      <Outlet />
    </Page>
  )
}
