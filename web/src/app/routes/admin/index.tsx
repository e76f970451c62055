import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { subscriptionLabel } from '@bosted/domain/subscription-status'
import { type FormEvent, useState } from 'react'
import { Link } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../../components/ui/page.tsx'
import { QueryState } from '../../../components/ui/query-state.tsx'
import { SearchField } from '../../../components/ui/search-field.tsx'
import { TableScroll } from '../../../components/ui/table-scroll.tsx'
import { useCreateLocation } from '../../../features/admin/api/create-location.ts'
import { useAdminOverview } from '../../../features/admin/api/get-admin-overview.ts'
import { LocationNameField, locationNameError } from '../../../features/admin/components/location-name-field.tsx'
import { locationRows, needsAttention, type Sort, type SortKey } from '../../../features/admin/location-rows.ts'
import { matchesSearch } from '../../../features/location-settings/search.ts'
import { PersonAvatar } from '../../../features/persons/components/person-avatar.tsx'
import { personName, sortByName } from '../../../features/persons/person-name.ts'
import { session } from '../../../features/session/session-store.ts'
import { paths } from '../../../lib/paths.ts'
import { reloadLocations } from '../../session.ts'

/** How many persons a search shows at most. */
const SEARCH_LIMIT = 20

/** Administration: every location with its subscription, creating one, and a search over all persons. */
export function Component() {
  const overview = useAdminOverview()
  return (
    <Page title={da.pages.admin}>
      <CreateLocation />
      <QueryState query={overview} errorMessage={da.admin.loadFailed}>
        {({ locations, persons }) => (
          <>
            <LocationTable locations={locations} />
            <PersonSearch persons={persons} names={new Map(locations.map((l) => [l.id, l.name]))} />
          </>
        )}
      </QueryState>
    </Page>
  )
}

function CreateLocation() {
  const { user } = useSnapshot(session)
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const create = useCreateLocation(user?.id ?? null, {
    onCreated: async (newId) => {
      setName('')
      await reloadLocations(newId)
    },
  })
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const problem = locationNameError(name)
    setError(problem)
    if (problem === null) create.mutate(name)
  }
  return (
    <form className="form admin-create" onSubmit={handleSubmit} noValidate aria-label={da.admin.createLocation}>
      <LocationNameField label={da.admin.newLocationName} value={name} error={error} onChange={setName} />
      <div className="form__actions">
        <button type="submit" className="button button--action" disabled={create.isPending}>
          {da.admin.createLocation}
        </button>
      </div>
    </form>
  )
}

const COLUMNS: [SortKey, string][] = [
  ['name', da.admin.name],
  ['persons', da.admin.persons],
  ['staff', da.admin.staff],
  ['subscription', da.admin.subscription],
]

function LocationTable({ locations }: { locations: Parameters<typeof locationRows>[0] }) {
  const [sort, setSort] = useState<Sort>({ key: 'name', direction: 'ascending' })
  const rows = locationRows(locations, sort, new Date())
  const toggle = (key: SortKey) =>
    setSort((current) => ({
      key,
      direction: current.key === key && current.direction === 'ascending' ? 'descending' : 'ascending',
    }))
  return (
    <section aria-labelledby="admin-locations">
      <h2 id="admin-locations">{da.admin.locations}</h2>
      <TableScroll label={da.admin.locations}>
        <table className="admin-locations">
          <thead>
            <tr>
              {COLUMNS.map(([key, label]) => (
                <th key={key} scope="col" aria-sort={sort.key === key ? sort.direction : 'none'}>
                  <button type="button" className="table-sort" onClick={() => toggle(key)}>
                    {label}
                    <span aria-hidden="true">
                      {sort.key === key ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ''}
                    </span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} className={needsAttention(row) ? 'admin-locations__attention' : undefined}>
                <th scope="row">
                  <span className="settings-name">
                    {row.logoUrl !== null && /^https?:/.test(row.logoUrl) ? (
                      <img className="admin-locations__logo" src={row.logoUrl} alt="" />
                    ) : null}
                    <Link to={paths.admin.location(row.id, 'general')}>{row.name}</Link>
                  </span>
                </th>
                <td>{row.personCount}</td>
                <td>{row.staffCount}</td>
                <td>
                  <span
                    className={`badge${row.status.kind === 'expired' ? ' badge--missing' : row.status.kind === 'expiring' ? ' badge--info' : row.status.kind === 'active' ? ' badge--ok' : ''}`}
                  >
                    {subscriptionLabel(row.status)}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  )
}

function PersonSearch({ persons, names }: { persons: readonly Person[]; names: ReadonlyMap<string, string> }) {
  const [query, setQuery] = useState('')
  const found =
    query.trim() === ''
      ? []
      : sortByName(persons.filter((person) => matchesSearch(person, query))).slice(0, SEARCH_LIMIT)
  return (
    <section aria-labelledby="admin-persons" className="admin-search">
      <h2 id="admin-persons">{da.admin.persons}</h2>
      <SearchField label={da.admin.searchPersons} value={query} onChange={setQuery} />
      {query.trim() !== '' && found.length === 0 && <p className="muted">{da.admin.noPersonsFound}</p>}
      {found.length > 0 && (
        <ul className="admin-search__results">
          {found.map((person) => (
            <li key={person.id}>
              <PersonAvatar person={person} />
              <Link to={paths.admin.personSettings(person.id)}>{personName(person)}</Link>
              <span className="muted">
                {[person.contact?.email, names.get(person.locationId ?? '')].filter(Boolean).join(' · ')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
