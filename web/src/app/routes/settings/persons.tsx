import { da } from '@bosted/domain/messages/da'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { Page } from '../../../components/ui/page.tsx'
import { QueryState } from '../../../components/ui/query-state.tsx'
import { SearchField } from '../../../components/ui/search-field.tsx'
import { SkippedNotice } from '../../../components/ui/skipped-notice.tsx'
import { TableScroll } from '../../../components/ui/table-scroll.tsx'
import { matchesSearch } from '../../../features/location-settings/search.ts'
import { useLocationPersons } from '../../../features/persons/api/get-location-persons.ts'
import { PersonAvatar } from '../../../features/persons/components/person-avatar.tsx'
import { personName, sortByName } from '../../../features/persons/person-name.ts'
import { paths } from '../../../lib/paths.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'
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
  const [search, setSearch] = useState('')
  const persons = useLocationPersons(locationId)
  return (
    <QueryState query={persons} errorMessage={da.settingsList.loadFailed}>
      {(data) => {
        const shown = sortByName(data.items.filter((person) => matchesSearch(person, search)))
        return (
          <>
            <SkippedNotice kind="persons" count={data.skipped} />
            <SearchField
              label={da.settingsList.search}
              value={search}
              onChange={setSearch}
              className="settings-search"
            />
            {shown.length === 0 ? (
              <p className="muted">{da.settingsList.noMatch}</p>
            ) : (
              <TableScroll label={da.settingsList.persons}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{da.settingsList.name}</th>
                      <th scope="col">{da.settingsList.contact}</th>
                      <th scope="col">{da.settingsList.status}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((person) => (
                      <tr key={person.id}>
                        <th scope="row">
                          <span className="settings-name">
                            <PersonAvatar person={person} />
                            <Link to={paths.person.settings.overview(person.id)}>{personName(person)}</Link>
                          </span>
                        </th>
                        <td>{[person.contact?.email, person.contact?.phone].filter(Boolean).join(' · ') || '–'}</td>
                        <td>
                          {person.settings.disabled ? (
                            <span className="badge badge--missing">{da.settingsList.disabled}</span>
                          ) : (
                            <span className="badge badge--ok">{da.settingsList.active}</span>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </>
        )
      }}
    </QueryState>
  )
}
