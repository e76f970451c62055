import { da } from '@bosted/domain/messages/da'
import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import { Outlet, useParams } from 'react-router-dom'
import { Page } from '../../../components/ui/page.tsx'
import { QueryState } from '../../../components/ui/query-state.tsx'
import { TabsNav } from '../../../components/ui/tabs-nav.tsx'
import { useAdminLocation } from '../../../features/admin/api/get-location.ts'
import { usePerson } from '../../../features/persons/api/get-person.ts'
import { PersonAvatar } from '../../../features/persons/components/person-avatar.tsx'
import { personName } from '../../../features/persons/person-name.ts'
import { paths } from '../../../lib/paths.ts'

/** /admin/person/{id}/settings: who (avatar, name, location) and the tabs Indstillinger · Adgangslog. */
export function Component() {
  const { id = '' } = useParams()
  const person = usePerson(id)
  const location = useAdminLocation(person.data?.locationId ?? '')
  return (
    <Page title={da.pages.adminPersonSettings}>
      <QueryState
        query={person}
        errorMessage={daAccessLog.personLoadFailed}
        isEmpty={(data) => data === null}
        empty={da.errors.notFoundTitle}
      >
        {(data) =>
          data === null ? null : (
            <>
              <div className="person-head">
                <PersonAvatar person={data} size="large" />
                <div>
                  <p className="person-head__name">{personName(data)}</p>
                  {location.data != null && <p className="person-head__location">{location.data.name}</p>}
                </div>
              </div>
              <TabsNav
                label={da.pages.tabs}
                items={[
                  { to: paths.admin.personSettings(id), label: daAccessLog.settingsTab, end: true },
                  { to: paths.admin.personAccessLog(id), label: daAccessLog.tab },
                ]}
              />
              <Outlet />
            </>
          )
        }
      </QueryState>
    </Page>
  )
}
