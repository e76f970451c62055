import { registrationsPath } from '@bosted/domain/paths'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { liveOr, useLiveQuery } from '../../../lib/live-query.ts'
import type { Parsed } from '../../../lib/parse-records.ts'
import { between, type QuerySpec } from '../../../lib/query-spec.ts'
import { readQuery } from '../../../lib/read-query.ts'
import { registrationKeys } from './keys.ts'
import { type StoredRegistration, toRegistrations } from './registration-document.ts'

/** A person's registrations from `from` to `to` (days, both included), from their own subcollection. */
function personRegistrationsSpec(personId: string, from: string, to: string): QuerySpec {
  return { source: 'collection', path: registrationsPath(personId), parts: between('day', from, to) }
}

/** The documents as the pages show them: parsed (misfits left out and counted), oldest first. */
function personRegistrationsOf(docs: Parameters<typeof toRegistrations>[0]): Parsed<StoredRegistration> {
  const parsed = toRegistrations(docs)
  parsed.items.sort((a, b) => a.day.localeCompare(b.day) || a.createdAt.localeCompare(b.createdAt))
  return parsed
}

export async function getPersonRegistrations(
  personId: string,
  from: string,
  to: string,
): Promise<Parsed<StoredRegistration>> {
  return personRegistrationsOf(await readQuery(personRegistrationsSpec(personId, from, to)))
}

export function personRegistrationsQueryOptions(personId: string, from: string, to: string) {
  const queryKey = registrationKeys.person(personId, from, to)
  return queryOptions({
    queryKey,
    queryFn: () => liveOr(queryKey, () => getPersonRegistrations(personId, from, to)),
  })
}

/** A person's registrations from `from` to `to`, kept current while shown. */
export function usePersonRegistrations(personId: string, from: string, to: string) {
  const options = personRegistrationsQueryOptions(personId, from, to)
  const query = useQuery(options)
  useLiveQuery(options.queryKey, query.isSuccess ? personRegistrationsSpec(personId, from, to) : null, ({ docs }) =>
    personRegistrationsOf(docs),
  )
  return query
}
