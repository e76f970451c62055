import { DEFAULT_USER_FIRST_NAME, DEFAULT_USER_LAST_NAME } from '@bosted/domain/constants'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/** A staff member (users/{id}) or a person, a borger (persons/{id}: no users document). */
export type UserProfile = {
  kind: 'staff' | 'person'
  firstName: string
  lastName: string
  locations: string[]
  /** The picture shown with the name in the header (an https download URL), if any. */
  avatarUrl: string | null
}

const picture = (value: unknown) => (typeof value === 'string' && /^https?:/.test(value) ? value : null)

const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback)

/**
 * users/{id}: the name shown in the header and the ids of the locations the user may see. An account
 * with no staff document is a person (borger) when persons/{id} exists.
 */
export async function getUserProfile(id: string): Promise<UserProfile> {
  const [db, { doc, getDoc }] = await Promise.all([getDb(), firestoreLite()])
  // The rules let anyone learn that they have no staff document (and nothing more).
  const data = (await getDoc(doc(db, 'users', id))).data()
  if (data === undefined) {
    const person = (await getDoc(doc(db, 'persons', id))).data()
    if (person !== undefined)
      return {
        kind: 'person',
        firstName: text(person.firstName, ''),
        lastName: text(person.lastName, ''),
        locations: [],
        avatarUrl: picture(person.avatarUrl),
      }
  }
  const staff = data ?? {}
  return {
    kind: 'staff',
    // The spec's defaults for a user document without a name (REQ-USER-1).
    firstName: text(staff.firstName, DEFAULT_USER_FIRST_NAME),
    lastName: text(staff.lastName, DEFAULT_USER_LAST_NAME),
    locations: Array.isArray(staff.locations) ? staff.locations.filter((value) => typeof value === 'string') : [],
    avatarUrl: picture(staff.avatarUrl),
  }
}
