import { DEFAULT_LOCATION_FEATURES } from '@bosted/domain/location'
import { LOCATIONS, userPath } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/**
 * SPEC §7's "adding a location": save it with dates as ISO strings, then array-union its id into the
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
