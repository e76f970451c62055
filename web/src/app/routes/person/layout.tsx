import { da } from '@bosted/domain/messages/da'
import { Outlet, useParams } from 'react-router-dom'
import { Page } from '../../../components/ui/page.tsx'
import { TabsNav } from '../../../components/ui/tabs-nav.tsx'

export function Component() {
  const { id = '' } = useParams()
  const base = `/person/${encodeURIComponent(id)}`
  return (
    <Page title={da.pages.person}>
      <TabsNav
        label={da.pages.person}
        items={[
          { to: `${base}/daily`, label: da.nav.daily },
          { to: `${base}/notes`, label: da.nav.notes },
          { to: `${base}/settings`, label: da.nav.settings },
        ]}
      />
      <Outlet />
    </Page>
  )
}
