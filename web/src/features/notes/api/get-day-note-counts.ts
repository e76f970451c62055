import { NoteSchema } from '@bosted/domain/answer'
import { NOTES } from '@bosted/domain/paths'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'

/**
 * How many diary entries each person of a location has on a day, in one request:
 * `collectionGroup('notes') where locationId == L and day == D`. Deleted entries still count: their
 * marker is shown in the diary. Keyed by person id.
 */
export async function getDayNoteCounts(locationId: string, day: string): Promise<Map<string, number>> {
  const [db, { collectionGroup, getDocs, query, where }] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await getDocs(
    query(collectionGroup(db, NOTES), where('locationId', '==', locationId), where('day', '==', day)),
  )
  const counts = new Map<string, number>()
  for (const document of snapshot.docs) {
    const { personId } = NoteSchema.parse(document.data())
    counts.set(personId, (counts.get(personId) ?? 0) + 1)
  }
  return counts
}
