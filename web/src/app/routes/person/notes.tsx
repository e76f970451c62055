import { da } from '@bosted/domain/messages/da'
import { canManage, roleOfClaims } from '@bosted/domain/user'
import { useParams, useSearchParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../../components/ui/page.tsx'
import { useActiveLocation } from '../../../features/locations/use-active-location.ts'
import { Diary } from '../../../features/notes/components/diary.tsx'
import { notesFilterParams, parseNotesFilter } from '../../../features/notes/notes-filter.ts'
import { usePerson } from '../../../features/persons/api/get-person.ts'
import { personName } from '../../../features/persons/person-name.ts'
import { fullName, session } from '../../../features/session/session-store.ts'
import { today } from '../../../lib/days.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'

/** One person's diary within the /person/{id} layout: the same list and editor, the person preselected. */
export function Component() {
  const { id = '' } = useParams()
  const { user } = useSnapshot(session)
  const { list } = useActiveLocation(user?.locations ?? [])
  const [params, setParams] = useSearchParams()
  const filter = { ...parseNotesFilter(params, today()), personIds: [id] }
  // The route's loader has read the person (or answered 404), so this is normally from the cache.
  const person = usePerson(id)
  const location = list.find((candidate) => candidate.id === person.data?.locationId)
  const locationId = person.data?.locationId ?? null
  return (
    <Page title={da.pages.personNotes} level={2}>
      {user === null || person.data == null || locationId === null ? (
        <RouteLoading />
      ) : (
        <Diary
          key={id}
          author={{
            id: user.id,
            name: fullName(user),
            isManager: canManage(roleOfClaims(user.customClaims), user.customClaims),
          }}
          location={{ id: locationId, features: location?.features }}
          persons={[person.data]}
          nameOf={personName}
          isOwnDiary
          filter={filter}
          onFilter={(next) => setParams(notesFilterParams({ ...next, personIds: [] }))}
        />
      )}
    </Page>
  )
}
