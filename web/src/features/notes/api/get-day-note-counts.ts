import { NoteSchema } from '@bosted/domain/answer'
import { NOTES } from '@bosted/domain/paths'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { liveOr, useLiveQuery } from '../../../lib/live-query.ts'
import { parseRecords } from '../../../lib/parse-records.ts'
import { equalTo, type QuerySpec } from '../../../lib/query-spec.ts'
import { readQuery } from '../../../lib/read-query.ts'
import { noteKeys } from './keys.ts'

/**
 * How many diary entries each person of a location has on a day, in one request:
 * `collectionGroup('notes') where locationId == L and day == D`.
 */
function dayNotesSpec(locationId: string, day: string): QuerySpec {
  return { source: 'group', path: NOTES, parts: equalTo({ locationId, day }) }
}

/**
 * The counts, keyed by person id. Deleted entries still count: their marker is shown in the diary.
 * An entry that does not fit is left out of the counts (the diary itself reports it).
 */
function countsOf(docs: readonly { data(): Record<string, unknown> }[]): Map<string, number> {
  const counts = new Map<string, number>()
  const { items } = parseRecords('notes', docs, (document) => NoteSchema.parse(document.data()))
  for (const { personId } of items) counts.set(personId, (counts.get(personId) ?? 0) + 1)
  return counts
}

export async function getDayNoteCounts(locationId: string, day: string): Promise<Map<string, number>> {
  return countsOf(await readQuery(dayNotesSpec(locationId, day)))
}

export function dayNoteCountsQueryOptions(locationId: string, day: string) {
  const queryKey = noteKeys.dayCounts(locationId, day)
  return queryOptions({ queryKey, queryFn: () => liveOr(queryKey, () => getDayNoteCounts(locationId, day)) })
}

/** How many entries each person of a location has on `day`, kept current while shown. */
export function useDayNoteCounts(locationId: string, day: string) {
  const options = dayNoteCountsQueryOptions(locationId, day)
  const query = useQuery(options)
  useLiveQuery(options.queryKey, query.isSuccess ? dayNotesSpec(locationId, day) : null, ({ docs }) => countsOf(docs))
  return query
}
