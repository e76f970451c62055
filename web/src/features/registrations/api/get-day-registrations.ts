import { REGISTRATIONS } from '@bosted/domain/paths'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { liveOr, useLiveQuery } from '../../../lib/live-query.ts'
import type { Parsed } from '../../../lib/parse-records.ts'
import { equalTo, type QuerySpec } from '../../../lib/query-spec.ts'
import { readQuery } from '../../../lib/read-query.ts'
import { registrationKeys } from './keys.ts'
import { type StoredRegistration, toRegistrations } from './registration-document.ts'

/**
 * Every registration of a location on a day, in one request whatever the location's size:
 * `collectionGroup('registrations') where locationId == L and day == D` (the rules allow a
 * collection-group list by its locationId, ADR 0004).
 */
function dayRegistrationsSpec(locationId: string, day: string): QuerySpec {
  return { source: 'group', path: REGISTRATIONS, parts: equalTo({ locationId, day }) }
}

/** The documents as the page shows them: parsed, oldest first. */
function dayRegistrationsOf(docs: Parameters<typeof toRegistrations>[0]): Parsed<StoredRegistration> {
  const parsed = toRegistrations(docs)
  return { ...parsed, items: parsed.items.sort((a, b) => a.createdAt.localeCompare(b.createdAt)) }
}

export async function getDayRegistrations(locationId: string, day: string): Promise<Parsed<StoredRegistration>> {
  return dayRegistrationsOf(await readQuery(dayRegistrationsSpec(locationId, day)))
}

export function dayRegistrationsQueryOptions(locationId: string, day: string) {
  const queryKey = registrationKeys.day(locationId, day)
  return queryOptions({ queryKey, queryFn: () => liveOr(queryKey, () => getDayRegistrations(locationId, day)) })
}

/** A location's registrations on `day`, kept current while shown (a colleague's appear by themselves). */
export function useDayRegistrations(locationId: string, day: string) {
  const options = dayRegistrationsQueryOptions(locationId, day)
  const query = useQuery(options)
  useLiveQuery(options.queryKey, query.isSuccess ? dayRegistrationsSpec(locationId, day) : null, ({ docs }) =>
    dayRegistrationsOf(docs),
  )
  return query
}
