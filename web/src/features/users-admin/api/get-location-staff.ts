import { USERS } from '@bosted/domain/paths'
import { type User, UserSchema } from '@bosted/domain/user'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/**
 * Staff with access to a location: `users where locations array-contains L`, the constraint the
 * rules test (ADR 0004). Parsed with the domain schema; a failure throws.
 */
export async function getLocationStaff(locationId: string): Promise<User[]> {
  const [db, { collection, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(query(collection(db, USERS), where('locations', 'array-contains', locationId)))
  return snapshot.docs.map((document) => UserSchema.parse({ ...document.data(), id: document.id }))
}
