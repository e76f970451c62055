import { displayName } from '@bosted/domain/names'
import { USERS } from '@bosted/domain/paths'
import { UserSchema } from '@bosted/domain/user'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { parseRecords } from '../../../lib/parse-records.ts'

/**
 * The names of a location's staff (`users where locations array-contains L`, the constraint the
 * rules test), keyed by uid: who made a registration. Read once per location and kept.
 */
export async function getLocationStaffNames(locationId: string): Promise<Map<string, string>> {
  const [db, { collection, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(query(collection(db, USERS), where('locations', 'array-contains', locationId)))
  // A staff document that does not fit is left out (its author shows without a name).
  const { items } = parseRecords('users', snapshot.docs, (document) =>
    UserSchema.parse({ ...document.data(), id: document.id }),
  )
  return new Map(items.map((user) => [user.id, displayName(user)]))
}
