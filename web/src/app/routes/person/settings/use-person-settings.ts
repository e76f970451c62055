import type { Person, PersonUpdate } from '@bosted/domain/person'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useParams } from 'react-router-dom'
import { getPerson } from '../../../../features/persons/api/get-person.ts'
import { updatePerson } from '../../../../features/persons/api/update-person.ts'
import { PERSON_UPDATE_TOASTS } from '../../../../features/persons/person-changes.ts'
import { queryKeys } from '../../../../lib/query-keys.ts'
import { toastPromise } from '../../../../lib/toast.ts'
import { useSettingsAccess } from '../../../use-settings-access.ts'

/** The person of /person/{id}/settings/*, whether the viewer may change them, and SPEC §7's update. */
export function usePersonSettings() {
  const { id = '' } = useParams()
  const queryClient = useQueryClient()
  const { user, isManager, isAdmin } = useSettingsAccess()
  // The route's loader has read the person, so this is normally from the cache.
  const { data: person } = useQuery({ queryKey: queryKeys.person(id), queryFn: () => getPerson(id) })
  const canEdit =
    person != null && (isAdmin || (isManager && (user?.locations ?? []).includes(person.locationId ?? '')))
  const save = useMutation({
    mutationFn: (changes: PersonUpdate) => toastPromise(updatePerson(id, changes), PERSON_UPDATE_TOASTS),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['persons'] }),
        queryClient.invalidateQueries({ queryKey: ['answers'] }),
      ]),
    onError: (error) => console.warn('a person could not be updated', (error as Error).name),
  })
  return { id, person: person ?? null, canEdit, save } as {
    id: string
    person: Person | null
    canEdit: boolean
    save: typeof save
  }
}
