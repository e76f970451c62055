import { registrationsPath } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type StoredRegistration, toRegistration } from './registration-document.ts'

/** A person's registrations from `from` to `to` (days, both included), oldest first. */
export async function getPersonRegistrations(
  personId: string,
  from: string,
  to: string,
): Promise<StoredRegistration[]> {
  const [db, { collection, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(
    query(collection(db, registrationsPath(personId)), where('day', '>=', from), where('day', '<=', to)),
  )
  return snapshot.docs
    .map(toRegistration)
    .sort((a, b) => a.day.localeCompare(b.day) || a.createdAt.localeCompare(b.createdAt))
}
