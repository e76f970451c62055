import { NOTES } from '@bosted/domain/paths'
import type { QueryPart, QuerySpec } from '../../../lib/query-spec.ts'

/** Firestore's limit on the values of one `in` filter. */
export const MAX_PERSON_FILTER = 30

/** Where a page ends: entries written at the same moment are told apart by their document path. */
export type NotesCursor = { day: string; createdAt: string; path: string }

/** What one page of a diary list asks for: a location, a period, maybe some persons, after a cursor. */
export type NotesQuery = {
  locationId: string
  /** Ids of the persons to show; empty: every person of the location. */
  personIds: readonly string[]
  from: string
  to: string
  /** The last entry of the previous page (its day, createdAt and document path), or null for the first page. */
  after: NotesCursor | null
  limit: number
}

/**
 * The constraints of a page, in the shape the rules allow (ADR 0004: a collection-group list must
 * fix locationId): newest day first, then newest written, one more than the page to know if more follow.
 */
export function notesQueryParts(query: NotesQuery): QueryPart[] {
  if (query.personIds.length > MAX_PERSON_FILTER) throw new Error(`at most ${MAX_PERSON_FILTER} persons at once`)
  const parts: QueryPart[] = [{ kind: 'where', field: 'locationId', op: '==', value: query.locationId }]
  if (query.personIds.length === 1)
    parts.push({ kind: 'where', field: 'personId', op: '==', value: query.personIds[0] })
  else if (query.personIds.length > 1)
    parts.push({ kind: 'where', field: 'personId', op: 'in', value: [...query.personIds] })
  parts.push(
    { kind: 'where', field: 'day', op: '>=', value: query.from },
    { kind: 'where', field: 'day', op: '<=', value: query.to },
    { kind: 'orderBy', field: 'day', direction: 'desc' },
    { kind: 'orderBy', field: 'createdAt', direction: 'desc' },
    { kind: 'orderBy', field: '__name__', direction: 'desc' },
  )
  if (query.after !== null)
    parts.push({ kind: 'startAfter', values: [query.after.day, query.after.createdAt, query.after.path] })
  parts.push({ kind: 'limit', value: query.limit + 1 })
  return parts
}

/** A page as a query over every person's diary (`collectionGroup('notes')`). */
export function notesQuerySpec(query: NotesQuery): QuerySpec {
  return { source: 'group', path: NOTES, parts: notesQueryParts(query) }
}
