import { da } from '@bosted/domain/messages/da'
import { Link } from 'react-router-dom'
import { Page } from '../../../components/ui/page.tsx'
import { QueryState } from '../../../components/ui/query-state.tsx'
import { useLocationPersons } from '../../../features/persons/api/get-location-persons.ts'
import { PersonAvatar } from '../../../features/persons/components/person-avatar.tsx'
import { personName } from '../../../features/persons/person-name.ts'
import { paths } from '../../../lib/paths.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'
import { SettingsTable, SignInBadge } from '../../settings-table.tsx'
import { useSettingsAccess } from '../../use-settings-access.ts'

/** Borgere: the active location's persons, searchable, each leading to their settings. */
export function Component() {
  const { location, loaded, isManager } = useSettingsAccess()
  return (
    <Page title={da.pages.settingsPersons} level={2}>
      {isManager && (
        <p>
          <Link className="button button--action" to={paths.create.person}>
            {da.form.createPerson}
          </Link>
        </p>
      )}
      {!loaded ? (
        <RouteLoading />
      ) : location === null ? (
        <p className="notice">{da.settingsList.noLocation}</p>
      ) : (
        <PersonList key={location.id} locationId={location.id} />
      )}
    </Page>
  )
}

function PersonList({ locationId }: { locationId: string }) {
  const persons = useLocationPersons(locationId)
  return (
    <QueryState query={persons} errorMessage={da.settingsList.loadFailed}>
      {(data) => (
        <SettingsTable
          kind="persons"
          label={da.settingsList.persons}
          list={data}
          columns={
            <>
              <th scope="col">{da.settingsList.name}</th>
              <th scope="col">{da.settingsList.contact}</th>
              <th scope="col">{da.settingsList.status}</th>
            </>
          }
          row={(person) => (
            <tr key={person.id}>
              <th scope="row">
                <span className="settings-name">
                  <PersonAvatar person={person} />
                  <Link to={paths.person.settings.overview(person.id)}>{personName(person)}</Link>
                </span>
              </th>
              <td>{[person.contact?.email, person.contact?.phone].filter(Boolean).join(' · ') || '–'}</td>
              <td>
                <SignInBadge disabled={person.settings.disabled} />
              </td>
            </tr>
          )}
        />
      )}
    </QueryState>
  )
}
