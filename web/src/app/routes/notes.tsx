import { da } from '@bosted/domain/messages/da'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../components/ui/page.tsx'
import { locations } from '../../features/locations/locations-store.ts'
import { notesFilterParams, parseNotesFilter } from '../../features/notes/notes-filter.ts'
import { getLocationPersons } from '../../features/persons/api/get-location-persons.ts'
import { sortByName } from '../../features/persons/person-name.ts'
import { type SessionUser, session } from '../../features/session/session-store.ts'
import { today } from '../../lib/days.ts'
import { queryKeys } from '../../lib/query-keys.ts'
import { Diary } from '../care/diary.tsx'
import { RouteLoading } from '../layout/route-loading.tsx'

/** Dagbøger: the active location's diary entries, filtered by persons, period and text (all in the URL). */
export function Component() {
  const { user } = useSnapshot(session)
  const { list, activeId, loaded } = useSnapshot(locations)
  const [params, setParams] = useSearchParams()
  const filter = parseNotesFilter(params, today())
  const location = list.find((candidate) => candidate.id === activeId) ?? null
  const persons = useQuery({
    queryKey: queryKeys.locationPersons(location?.id ?? ''),
    queryFn: () => getLocationPersons(location?.id ?? ''),
    select: (parsed) => parsed.items,
    enabled: location !== null,
  })

  let content: ReactNode
  if (user === null || !loaded) content = <RouteLoading />
  else if (location === null) content = <p className="notice">{da.notes.noLocation}</p>
  else if (persons.isError)
    content = (
      <div className="notice notice--error" role="alert">
        <p>{da.notes.loadFailed}</p>
        <button type="button" className="button button--secondary" onClick={() => void persons.refetch()}>
          {da.notes.retry}
        </button>
      </div>
    )
  else if (persons.data === undefined) content = <RouteLoading />
  else if (persons.data.length === 0) content = <p className="notice">{da.notes.noPersons}</p>
  else
    content = (
      <Diary
        key={location.id}
        user={user as SessionUser}
        location={{ id: location.id, features: location.features }}
        persons={sortByName(persons.data)}
        filter={filter}
        onFilter={(next) => setParams(notesFilterParams(next))}
      />
    )
  return <Page title={da.pages.notes}>{content}</Page>
}
