import { da } from '@bosted/domain/messages/da'
import { useParams } from 'react-router-dom'
import { Page } from '../../../components/ui/page.tsx'
import { TabsNav } from '../../../components/ui/tabs-nav.tsx'
import { parseAdminLocationPath } from '../../admin-location-path.ts'

const TAB_TITLES = {
  general: da.pages.adminLocationGeneral,
  features: da.pages.adminLocationFeatures,
  subscription: da.pages.adminLocationSubscription,
} as const

/** /admin/location/{id}/{tab}: the id may span several segments (validated by the route's loader). */
export function Component() {
  const parsed = parseAdminLocationPath(useParams()['*'])
  if (parsed === null) return null
  const base = `/admin/location/${parsed.id}`
  return (
    <Page title={da.pages.adminLocation}>
      <TabsNav
        label={da.pages.tabs}
        items={[
          { to: `${base}/general`, label: TAB_TITLES.general },
          { to: `${base}/features`, label: TAB_TITLES.features },
          { to: `${base}/subscription`, label: TAB_TITLES.subscription },
        ]}
      />
      <Page title={TAB_TITLES[parsed.tab]} level={2} />
    </Page>
  )
}
