import { da } from '@bosted/domain/messages/da'
import { useQuery } from '@tanstack/react-query'
import { useParams, useSearchParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../../components/ui/page.tsx'
import { locations } from '../../../features/locations/locations-store.ts'
import { notesFilterParams, parseNotesFilter } from '../../../features/notes/notes-filter.ts'
import { getPerson } from '../../../features/persons/api/get-person.ts'
import { type SessionUser, session } from '../../../features/session/session-store.ts'
import { today } from '../../../lib/days.ts'
import { queryKeys } from '../../../lib/query-keys.ts'
import { Diary } from '../../care/diary.tsx'
import { RouteLoading } from '../../layout/route-loading.tsx'

/** One person's diary within the /person/{id} layout: the same list and editor, the person preselected. */
export function Component() {
  const { id = '' } = useParams()
  const { user } = useSnapshot(session)
  const { list } = useSnapshot(locations)
  const [params, setParams] = useSearchParams()
  const filter = { ...parseNotesFilter(params, today()), personIds: [id] }
  // The route's loader has read the person (or answered 404), so this is normally from the cache.
  const person = useQuery({ queryKey: queryKeys.person(id), queryFn: () => getPerson(id) })
  const location = list.find((candidate) => candidate.id === person.data?.locationId)
  const locationId = person.data?.locationId ?? null
  return (
    <Page title={da.pages.personNotes} level={2}>
      {user === null || person.data == null || locationId === null ? (
        <RouteLoading />
      ) : (
        <Diary
          key={id}
          user={user as SessionUser}
          location={{ id: locationId, features: location?.features }}
          persons={[person.data]}
          isOwnDiary
          filter={filter}
          onFilter={(next) => setParams(notesFilterParams({ ...next, personIds: [] }))}
        />
      )}
    </Page>
  )
}
