import type { Location } from '@bosted/domain/location'
import { da } from '@bosted/domain/messages/da'
import { useNavigate, useParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../../components/ui/page.tsx'
import { QueryState } from '../../../components/ui/query-state.tsx'
import { TabsNav } from '../../../components/ui/tabs-nav.tsx'
import { useDeleteLocation } from '../../../features/admin/api/delete-location.ts'
import { useAdminLocation } from '../../../features/admin/api/get-location.ts'
import { useUpdateLocation } from '../../../features/admin/api/update-location.ts'
import { LocationFeaturesForm } from '../../../features/admin/components/location-features.tsx'
import { LocationGeneral } from '../../../features/admin/components/location-general.tsx'
import { LocationSubscription } from '../../../features/admin/components/location-subscription.tsx'
import { removeLocation } from '../../../features/locations/locations-store.ts'
import { fullName, session } from '../../../features/session/session-store.ts'
import { paths } from '../../../lib/paths.ts'
import { parseAdminLocationPath } from '../../admin-location-path.ts'
import { reloadLocations } from '../../session.ts'

const TAB_TITLES = {
  general: da.pages.adminLocationGeneral,
  features: da.pages.adminLocationFeatures,
  subscription: da.pages.adminLocationSubscription,
} as const

/** /admin/location/{id}/{tab}: the id may span several segments (validated by the route's loader). */
export function Component() {
  const parsed = parseAdminLocationPath(useParams()['*'])
  const { user } = useSnapshot(session)
  const navigate = useNavigate()
  const id = parsed?.id ?? ''
  const location = useAdminLocation(id)
  // The header's switcher, logo and each page's features follow at once.
  const update = useUpdateLocation(id, { onRefreshed: () => reloadLocations() })
  const remove = useDeleteLocation(id, {
    // Deleting the active location switches to the first remaining one, or clears it (REQ-ACTIVE-3).
    onDeleted: () => {
      removeLocation(id)
      return reloadLocations()
    },
    onDone: () => navigate(paths.admin.index),
  })
  if (parsed === null) return null

  const tab = (data: Location) => {
    if (parsed.tab === 'general')
      return (
        <LocationGeneral
          key={data.name}
          location={data}
          onUpdate={(change) => update.mutateAsync(change)}
          onDelete={() => remove.mutate()}
        />
      )
    if (parsed.tab === 'features')
      return (
        <LocationFeaturesForm features={data.settings.features} onUpdate={(change) => update.mutateAsync(change)} />
      )
    return (
      <LocationSubscription
        key={JSON.stringify(data.settings.subscription)}
        location={data}
        editor={{ id: user?.id ?? '', name: user === null ? '' : fullName(user) }}
        onUpdate={(change) => update.mutateAsync(change)}
      />
    )
  }

  return (
    <Page title={da.pages.adminLocation}>
      {location.data != null && <p className="person-head__name">{location.data.name}</p>}
      <TabsNav
        label={da.pages.tabs}
        items={[
          { to: paths.admin.location(parsed.id, 'general'), label: TAB_TITLES.general },
          { to: paths.admin.location(parsed.id, 'features'), label: TAB_TITLES.features },
          { to: paths.admin.location(parsed.id, 'subscription'), label: TAB_TITLES.subscription },
        ]}
      />
      <Page title={TAB_TITLES[parsed.tab]} level={2}>
        <QueryState
          query={location}
          errorMessage={da.admin.loadFailed}
          isEmpty={(data) => data === null}
          empty={da.admin.notFound}
        >
          {(data) => (data === null ? null : tab(data))}
        </QueryState>
      </Page>
    </Page>
  )
}
