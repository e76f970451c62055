import { type LocationFeatures, locationFeatures } from '@bosted/domain/location-features'
import { locationSharedFeaturesPath } from '@bosted/domain/paths'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { locationKeys } from './keys.ts'

/**
 * A location's features as its persons may read them (the copy an admin writes with the location's
 * own setting); the defaults where an admin never changed them.
 */
export async function getSharedFeatures(locationId: string): Promise<LocationFeatures> {
  const [db, { doc, getDoc }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDoc(doc(db, locationSharedFeaturesPath(locationId)))
  return locationFeatures(snapshot.data())
}

export function sharedFeaturesQueryOptions(locationId: string) {
  return queryOptions({
    queryKey: locationKeys.sharedFeatures(locationId),
    queryFn: () => getSharedFeatures(locationId),
  })
}

/** A location's features as its persons read them; nothing asked for without a location. */
export function useSharedFeatures(locationId: string) {
  return useQuery({ ...sharedFeaturesQueryOptions(locationId), enabled: locationId !== '' })
}
