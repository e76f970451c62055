import { DEFAULT_USER_FIRST_NAME, DEFAULT_USER_LAST_NAME } from '@bosted/domain/constants'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

export type UserProfile = { firstName: string; lastName: string; locations: string[] }

const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback)

/** users/{id}: the name shown in the header and the ids of the locations the user may see. */
export async function getUserProfile(id: string): Promise<UserProfile> {
  const [db, { doc, getDoc }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDoc(doc(db, 'users', id))
  const data = snapshot.data() ?? {}
  return {
    // The spec's defaults for a user document without a name (SPEC §3).
    firstName: text(data.firstName, DEFAULT_USER_FIRST_NAME),
    lastName: text(data.lastName, DEFAULT_USER_LAST_NAME),
    locations: Array.isArray(data.locations) ? data.locations.filter((value) => typeof value === 'string') : [],
  }
}
