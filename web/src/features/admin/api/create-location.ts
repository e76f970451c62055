import { DEFAULT_LOCATION_FEATURES } from '@bosted/domain/location'
import { da } from '@bosted/domain/messages/da'
import { LOCATIONS, userPath } from '@bosted/domain/paths'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { adminKeys } from './keys.ts'

/**
 * REQ-DATA-3's "adding a location": save it with dates as ISO strings, then array-union its id into the
 * current user's locations. Fails without a signed-in user. Returns the new location's id.
 */
export async function createLocation(name: string, userId: string | null, now: Date = new Date()): Promise<string> {
  if (userId === null) throw new Error('no signed-in user')
  const [db, { arrayUnion, collection, doc, setDoc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  const reference = doc(collection(db, LOCATIONS))
  await setDoc(reference, {
    id: reference.id,
    name: name.trim(),
    createdAt: now.toISOString(),
    logoUrl: null,
    persons: [],
    settings: {
      answerOptions: [],
      subscription: null,
      notifications: null,
      features: DEFAULT_LOCATION_FEATURES,
      subscriptionHistory: [],
    },
  })
  await updateDoc(doc(db, userPath(userId)), { locations: arrayUnion(reference.id) })
  return reference.id
}

/**
 * Creates a location for `userId` with REQ-MSG-5's toasts; the overview follows. `onCreated` gets the
 * new id (the signed-in user's list of locations lives outside this feature).
 */
export function useCreateLocation(userId: string | null, { onCreated }: { onCreated: (id: string) => unknown }) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (name: string) =>
      toastPromise(createLocation(name, userId), {
        pending: da.admin.createPending,
        resolved: da.admin.createOk,
        rejected: da.admin.createFail,
      }),
    onSuccess: async (newId) => {
      await onCreated(newId)
    },
    onError: reportError('a location could not be created'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  })
}
