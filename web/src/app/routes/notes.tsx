import { da } from '@bosted/domain/messages/da'
import { canManage, roleOfClaims } from '@bosted/domain/user'
import { useSearchParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../components/ui/page.tsx'
import { QueryState } from '../../components/ui/query-state.tsx'
import { useActiveLocation } from '../../features/locations/use-active-location.ts'
import { Diary } from '../../features/notes/components/diary.tsx'
import { notesFilterParams, parseNotesFilter } from '../../features/notes/notes-filter.ts'
import { useLocationPersons } from '../../features/persons/api/get-location-persons.ts'
import { personName, sortByName } from '../../features/persons/person-name.ts'
import { fullName, type SessionUser, session } from '../../features/session/session-store.ts'
import { today } from '../../lib/days.ts'

/** Dagbøger: the active location's diary entries, filtered by persons, period and text (all in the URL). */
export function Component() {
  const { user } = useSnapshot(session)
  const { query: locations, location } = useActiveLocation(user?.locations ?? [])
  const [params, setParams] = useSearchParams()
  const filter = parseNotesFilter(params, today())
  const persons = useLocationPersons(location?.id ?? '', { enabled: location !== null })
  const author = user as SessionUser
  return (
    <Page title={da.pages.notes}>
      <QueryState query={locations} errorMessage={da.notes.loadFailed} report="the locations could not be loaded">
        {() =>
          location === null ? (
            <p className="notice">{da.notes.noLocation}</p>
          ) : (
            <QueryState
              query={persons}
              errorMessage={da.notes.loadFailed}
              report="the persons could not be loaded"
              isEmpty={(list) => list.items.length === 0}
              empty={da.notes.noPersons}
            >
              {(list) => (
                <Diary
                  key={location.id}
                  author={{
                    id: author.id,
                    name: fullName(author),
                    isManager: canManage(roleOfClaims(author.customClaims), author.customClaims),
                  }}
                  location={{ id: location.id, features: location.features }}
                  persons={sortByName(list.items)}
                  nameOf={personName}
                  filter={filter}
                  onFilter={(next) => setParams(notesFilterParams(next))}
                />
              )}
            </QueryState>
          )
        }
      </QueryState>
    </Page>
  )
}
