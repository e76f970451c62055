import type { Person } from '@bosted/domain/person'
import { usePerson } from './api/get-person.ts'
import { useUpdatePerson } from './api/update-person.ts'

/** Who is looking: the locations they belong to and their role's reach. */
export type PersonViewer = { user: { locations: readonly string[] } | null; isManager: boolean; isAdmin: boolean }

/** Admins change anyone; superusers the persons of their own locations; employees only read. */
export function canEditPerson(viewer: PersonViewer, person: Person | null | undefined): boolean {
  return (
    person != null &&
    (viewer.isAdmin || (viewer.isManager && (viewer.user?.locations ?? []).includes(person.locationId ?? '')))
  )
}

/** The person of /person/{id}/settings/*, whether the viewer may change them, and REQ-DATA-4's update. */
export function usePersonSettings(personId: string, viewer: PersonViewer) {
  // The route's loader has read the person, so this is normally from the cache.
  const { data: person } = usePerson(personId)
  const save = useUpdatePerson(personId)
  return { person: person ?? null, canEdit: canEditPerson(viewer, person), save }
}
