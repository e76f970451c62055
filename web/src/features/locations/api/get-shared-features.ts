import { type LocationFeatures, locationFeatures } from '@bosted/domain/location-features'
import { locationSharedFeaturesPath } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/**
 * A location's features as its persons may read them (the copy an admin writes with the location's
 * own setting); the defaults where an admin never changed them.
 */
export async function getSharedFeatures(locationId: string): Promise<LocationFeatures> {
  const [db, { doc, getDoc }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDoc(doc(db, locationSharedFeaturesPath(locationId)))
  return locationFeatures(snapshot.data())
}
