import { da } from '@bosted/domain/messages/da'
import { Outlet } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'
import { TabsNav } from '../../../../components/ui/tabs-nav.tsx'

export function Component() {
  return (
    <Page title={da.pages.createPerson}>
      <TabsNav
        label={da.pages.steps}
        items={[
          { to: '/create/person/general', label: da.pages.stepGeneral },
          { to: '/create/person/answers', label: da.pages.stepAnswers },
          { to: '/create/person/settings', label: da.pages.stepSettings },
        ]}
      />
      <Outlet />
    </Page>
  )
}
