import { da } from '@bosted/domain/messages/da'
import { roleRank } from '@bosted/domain/user'
import type { ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../components/ui/page.tsx'
import { useActiveLocation } from '../../features/locations/use-active-location.ts'
import { Diary } from '../../features/notes/components/diary.tsx'
import { notesFilterParams, parseNotesFilter } from '../../features/notes/notes-filter.ts'
import { useLocationPersons } from '../../features/persons/api/get-location-persons.ts'
import { personName, sortByName } from '../../features/persons/person-name.ts'
import { fullName, type SessionUser, session } from '../../features/session/session-store.ts'
import { today } from '../../lib/days.ts'
import { RouteLoading } from '../layout/route-loading.tsx'

/** Dagbøger: the active location's diary entries, filtered by persons, period and text (all in the URL). */
export function Component() {
  const { user } = useSnapshot(session)
  const { query: locations, location } = useActiveLocation(user?.locations ?? [])
  const [params, setParams] = useSearchParams()
  const filter = parseNotesFilter(params, today())
  const persons = useLocationPersons(location?.id ?? '', { enabled: location !== null })
  const failed = locations.isError ? locations : persons.isError ? persons : null

  let content: ReactNode
  if (user === null || locations.isPending) content = <RouteLoading />
  else if (failed !== null)
    content = (
      <div className="notice notice--error" role="alert">
        <p>{da.notes.loadFailed}</p>
        <button type="button" className="button button--secondary" onClick={() => void failed.refetch()}>
          {da.notes.retry}
        </button>
      </div>
    )
  else if (location === null) content = <p className="notice">{da.notes.noLocation}</p>
  else if (persons.data === undefined) content = <RouteLoading />
  else if (persons.data.items.length === 0) content = <p className="notice">{da.notes.noPersons}</p>
  else {
    const author = user as SessionUser
    content = (
      <Diary
        key={location.id}
        author={{
          id: author.id,
          name: fullName(author),
          isManager: roleRank(author.customClaims.userRole ?? 'user', author.customClaims) >= 2,
        }}
        location={{ id: location.id, features: location.features }}
        persons={sortByName(persons.data.items)}
        nameOf={personName}
        filter={filter}
        onFilter={(next) => setParams(notesFilterParams(next))}
      />
    )
  }
  return <Page title={da.pages.notes}>{content}</Page>
}
