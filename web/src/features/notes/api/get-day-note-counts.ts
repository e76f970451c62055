import { NoteSchema } from '@bosted/domain/answer'
import { NOTES } from '@bosted/domain/paths'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { parseRecords } from '../../../lib/parse-records.ts'
import { noteKeys } from './keys.ts'

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
  // An entry that does not fit is left out of the counts (the diary itself reports it).
  const { items } = parseRecords('notes', snapshot.docs, (document) => NoteSchema.parse(document.data()))
  for (const { personId } of items) counts.set(personId, (counts.get(personId) ?? 0) + 1)
  return counts
}

export function dayNoteCountsQueryOptions(locationId: string, day: string) {
  return queryOptions({
    queryKey: noteKeys.dayCounts(locationId, day),
    queryFn: () => getDayNoteCounts(locationId, day),
  })
}

/** How many entries each person of a location has on `day`. */
export function useDayNoteCounts(locationId: string, day: string) {
  return useQuery(dayNoteCountsQueryOptions(locationId, day))
}
