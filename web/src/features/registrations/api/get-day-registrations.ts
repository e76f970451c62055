import { REGISTRATIONS } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type StoredRegistration, toRegistration } from './registration-document.ts'

/**
 * Every registration of a location on a day, in one request whatever the location's size:
 * `collectionGroup('registrations') where locationId == L and day == D` (the rules allow a
 * collection-group list by its locationId, ADR 0004). Oldest first.
 */
export async function getDayRegistrations(locationId: string, day: string): Promise<StoredRegistration[]> {
  const [db, { collectionGroup, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(
    query(collectionGroup(db, REGISTRATIONS), where('locationId', '==', locationId), where('day', '==', day)),
  )
  return snapshot.docs.map(toRegistration).sort((a, b) => a.createdAt.localeCompare(b.createdAt))
}
