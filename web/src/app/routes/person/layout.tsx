import { da } from '@bosted/domain/messages/da'
import { Outlet, useParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../../components/ui/page.tsx'
import { TabsNav } from '../../../components/ui/tabs-nav.tsx'
import { useActiveLocation } from '../../../features/locations/use-active-location.ts'
import { usePerson } from '../../../features/persons/api/get-person.ts'
import { PersonAvatar } from '../../../features/persons/components/person-avatar.tsx'
import { personName } from '../../../features/persons/person-name.ts'
import { session } from '../../../features/session/session-store.ts'
import { paths } from '../../../lib/paths.ts'

/** A person's own pages: who (avatar, name, location) and the tabs Dagsoversigt · Dagbog · Indstillinger. */
export function Component() {
  const { id = '' } = useParams()
  const { user } = useSnapshot(session)
  const { list } = useActiveLocation(user?.locations ?? [])
  // The route's loader has read the person (or answered 404), so this is normally from the cache.
  const { data: person } = usePerson(id)
  const location = list.find((candidate) => candidate.id === person?.locationId)
  return (
    <Page title={da.pages.person}>
      {person != null && (
        <div className="person-head">
          <PersonAvatar person={person} size="large" />
          <div>
            <p className="person-head__name">{personName(person)}</p>
            {location !== undefined && <p className="person-head__location">{location.name}</p>}
          </div>
        </div>
      )}
      <TabsNav
        label={da.pages.person}
        items={[
          { to: paths.person.daily(id), label: da.nav.daily },
          { to: paths.person.notes(id), label: da.person.diaryTab },
          { to: paths.person.settings.overview(id), label: da.nav.settings },
        ]}
      />
      <Outlet />
    </Page>
  )
}
