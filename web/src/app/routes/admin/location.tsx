import { da } from '@bosted/domain/messages/da'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useNavigate, useParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../../components/ui/page.tsx'
import { TabsNav } from '../../../components/ui/tabs-nav.tsx'
import { deleteLocation } from '../../../features/admin/api/delete-location.ts'
import { getLocation } from '../../../features/admin/api/get-location.ts'
import { type LocationUpdate, updateLocation } from '../../../features/admin/api/update-location.ts'
import { LocationFeaturesForm } from '../../../features/admin/components/location-features.tsx'
import { LocationGeneral } from '../../../features/admin/components/location-general.tsx'
import { LocationSubscription } from '../../../features/admin/components/location-subscription.tsx'
import { removeLocation } from '../../../features/locations/locations-store.ts'
import { fullName, session } from '../../../features/session/session-store.ts'
import { isConcurrentEdit } from '../../../lib/concurrent-edit.ts'
import { queryKeys } from '../../../lib/query-keys.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { parseAdminLocationPath } from '../../admin-location-path.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'
import { reloadLocations } from '../../session.ts'

const TAB_TITLES = {
  general: da.pages.adminLocationGeneral,
  features: da.pages.adminLocationFeatures,
  subscription: da.pages.adminLocationSubscription,
} as const

const UPDATE_TOASTS = {
  pending: da.admin.updatePending,
  resolved: da.admin.updateOk,
  // Another admin saved first: said plainly; the refresh then shows what is stored.
  rejected: (error: unknown) => (isConcurrentEdit(error) ? da.admin.subscriptionConflict : da.admin.updateFail),
}

/** /admin/location/{id}/{tab}: the id may span several segments (validated by the route's loader). */
export function Component() {
  const parsed = parseAdminLocationPath(useParams()['*'])
  const { user } = useSnapshot(session)
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const id = parsed?.id ?? ''
  const location = useQuery({
    queryKey: queryKeys.adminLocation(id),
    queryFn: () => getLocation(id),
    enabled: id !== '',
  })
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.admin })
    // The header's switcher, logo and each page's features follow at once.
    await reloadLocations()
  }
  const update = useMutation({
    mutationFn: (change: LocationUpdate) => toastPromise(updateLocation(id, change), UPDATE_TOASTS),
    onSettled: refresh,
    onError: (error) => console.warn('a location could not be updated', (error as Error).name),
  })
  const remove = useMutation({
    mutationFn: () =>
      toastPromise(deleteLocation(id), {
        pending: da.admin.deletePending,
        resolved: da.admin.deleteOk,
        rejected: da.admin.deleteFail,
      }),
    onSuccess: async () => {
      // Deleting the active location switches to the first remaining one, or clears it (SPEC §4).
      removeLocation(id)
      await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.admin }), reloadLocations()])
      await navigate('/admin')
    },
    onError: (error) => console.warn('a location could not be deleted', (error as Error).name),
  })
  if (parsed === null) return null
  const base = `/admin/location/${parsed.id}`

  let content: ReactNode
  if (location.isError)
    content = (
      <div className="notice notice--error" role="alert">
        <p>{da.admin.loadFailed}</p>
        <button type="button" className="button button--secondary" onClick={() => void location.refetch()}>
          {da.admin.retry}
        </button>
      </div>
    )
  else if (location.data === undefined) content = <RouteLoading />
  else if (location.data === null) content = <p className="notice">{da.admin.notFound}</p>
  else if (parsed.tab === 'general')
    content = (
      <LocationGeneral
        key={location.data.name}
        location={location.data}
        onUpdate={(change) => update.mutateAsync(change)}
        onDelete={() => remove.mutate()}
      />
    )
  else if (parsed.tab === 'features')
    content = (
      <LocationFeaturesForm
        features={location.data.settings.features}
        onUpdate={(change) => update.mutateAsync(change)}
      />
    )
  else
    content = (
      <LocationSubscription
        key={JSON.stringify(location.data.settings.subscription)}
        location={location.data}
        editor={{ id: user?.id ?? '', name: user === null ? '' : fullName(user) }}
        onUpdate={(change) => update.mutateAsync(change)}
      />
    )

  return (
    <Page title={da.pages.adminLocation}>
      {location.data != null && <p className="person-head__name">{location.data.name}</p>}
      <TabsNav
        label={da.pages.tabs}
        items={[
          { to: `${base}/general`, label: TAB_TITLES.general },
          { to: `${base}/features`, label: TAB_TITLES.features },
          { to: `${base}/subscription`, label: TAB_TITLES.subscription },
        ]}
      />
      <Page title={TAB_TITLES[parsed.tab]} level={2}>
        {content}
      </Page>
    </Page>
  )
}
