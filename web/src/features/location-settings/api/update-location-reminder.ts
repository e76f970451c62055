import { locationPath } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/** The location's daily reminder time ('HH:MM'), or null for none; the caller toasts (SPEC §8). */
export async function updateLocationReminder(locationId: string, reminderTime: string | null): Promise<void> {
  const [db, { doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  await updateDoc(doc(db, locationPath(locationId)), {
    'settings.notifications': reminderTime === null ? null : { reminderTime },
  })
}
