import { personPath } from '@bosted/domain/paths'
import type { PersonUpdate } from '@bosted/domain/person'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { invalidateRoots } from '../../../lib/query-roots.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { PERSON_UPDATE_TOASTS } from '../person-changes.ts'

/**
 * REQ-DATA-4's person update: the given fields (dotted paths for nested settings) and nothing else.
 * The caller wraps it in toastPromise(…, PERSON_UPDATE_TOASTS).
 */
export async function updatePerson(personId: string, changes: PersonUpdate): Promise<void> {
  const [db, { doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  await updateDoc(doc(db, personPath(personId)), changes)
}

/** Saves changes to the person, with the update toasts; every person and answer-option list follows. */
export function useUpdatePerson(personId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (changes: PersonUpdate) => toastPromise(updatePerson(personId, changes), PERSON_UPDATE_TOASTS),
    // `settings.includePlaceAnswers` changes which options the register dialog offers.
    onSettled: () => invalidateRoots(queryClient, ['persons', 'answers']),
    onError: reportError('a person could not be updated'),
  })
}
