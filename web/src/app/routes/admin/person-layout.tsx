import { da } from '@bosted/domain/messages/da'
import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import { Outlet, useParams } from 'react-router-dom'
import { Page } from '../../../components/ui/page.tsx'
import { TabsNav } from '../../../components/ui/tabs-nav.tsx'
import { useAdminLocation } from '../../../features/admin/api/get-location.ts'
import { usePerson } from '../../../features/persons/api/get-person.ts'
import { PersonAvatar } from '../../../features/persons/components/person-avatar.tsx'
import { personName } from '../../../features/persons/person-name.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'

/** /admin/person/{id}/settings: who (avatar, name, location) and the tabs Indstillinger · Adgangslog. */
export function Component() {
  const { id = '' } = useParams()
  const person = usePerson(id)
  const location = useAdminLocation(person.data?.locationId ?? '')
  const base = `/admin/person/${encodeURIComponent(id)}/settings`

  if (person.isError)
    return (
      <Page title={da.pages.adminPersonSettings}>
        <div className="notice notice--error" role="alert">
          <p>{daAccessLog.personLoadFailed}</p>
          <button type="button" className="button button--secondary" onClick={() => void person.refetch()}>
            {daAccessLog.retry}
          </button>
        </div>
      </Page>
    )
  if (person.data === undefined)
    return (
      <Page title={da.pages.adminPersonSettings}>
        <RouteLoading />
      </Page>
    )
  if (person.data === null)
    return (
      <Page title={da.pages.adminPersonSettings}>
        <p className="notice">{da.errors.notFoundTitle}</p>
      </Page>
    )
  return (
    <Page title={da.pages.adminPersonSettings}>
      <div className="person-head">
        <PersonAvatar person={person.data} size="large" />
        <div>
          <p className="person-head__name">{personName(person.data)}</p>
          {location.data != null && <p className="person-head__location">{location.data.name}</p>}
        </div>
      </div>
      <TabsNav
        label={da.pages.tabs}
        items={[
          { to: base, label: daAccessLog.settingsTab, end: true },
          { to: `${base}/access-log`, label: daAccessLog.tab },
        ]}
      />
      <Outlet />
    </Page>
  )
}
