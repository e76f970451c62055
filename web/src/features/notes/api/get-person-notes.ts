import { notesPath } from '@bosted/domain/paths'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { liveOr, useLiveQuery } from '../../../lib/live-query.ts'
import type { Parsed } from '../../../lib/parse-records.ts'
import { between, type QuerySpec } from '../../../lib/query-spec.ts'
import { readQuery } from '../../../lib/read-query.ts'
import { noteKeys } from './keys.ts'
import { type StoredNote, toNotes } from './note-document.ts'

/**
 * One person's diary entries from `from` to `to` (days, both included), read from their own
 * subcollection: what a person may list of their own (the rules' canReadCare), no location needed.
 */
function personNotesSpec(personId: string, from: string, to: string): QuerySpec {
  return { source: 'collection', path: notesPath(personId), parts: between('day', from, to) }
}

/** The documents as the pages show them: parsed, newest first. */
function personNotesOf(docs: Parameters<typeof toNotes>[0]): Parsed<StoredNote> {
  const parsed = toNotes(docs)
  parsed.items.sort((a, b) => b.day.localeCompare(a.day) || b.createdAt.localeCompare(a.createdAt))
  return parsed
}

export async function getPersonNotes(personId: string, from: string, to: string): Promise<Parsed<StoredNote>> {
  return personNotesOf(await readQuery(personNotesSpec(personId, from, to)))
}

export function personNotesQueryOptions(personId: string, from: string, to: string) {
  const queryKey = noteKeys.person(personId, from, to)
  return queryOptions({ queryKey, queryFn: () => liveOr(queryKey, () => getPersonNotes(personId, from, to)) })
}

/** A person's own diary entries from `from` to `to`, kept current while shown. */
export function usePersonNotes(personId: string, from: string, to: string) {
  const options = personNotesQueryOptions(personId, from, to)
  const query = useQuery(options)
  useLiveQuery(options.queryKey, query.isSuccess ? personNotesSpec(personId, from, to) : null, ({ docs }) =>
    personNotesOf(docs),
  )
  return query
}
