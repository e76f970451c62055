import { infiniteQueryOptions, useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { useLiveRefetch } from '../../../lib/live-query.ts'
import { matchesText, type NotesFilter } from '../notes-filter.ts'
import { getNotesPage, type NotesPage } from './get-notes-page.ts'
import { noteKeys } from './keys.ts'
import { type StoredNote, toNotes } from './note-document.ts'
import { MAX_PERSON_FILTER, type NotesCursor, type NotesQuery, notesQuerySpec } from './notes-query.ts'

/** Entries per page ("Vis flere" loads the next by cursor). */
export const NOTES_PAGE_SIZE = 25
/** How many pages one "Vis flere" may read while searching before it shows what it found. */
export const MAX_SEARCH_READS = 10
/** Entries read per request while searching (a search skips most of them). */
export const SEARCH_BATCH = 100

/**
 * A page of entries whose text contains `text`. Firestore has no text search, so the period's pages
 * are read in batches and filtered here, until a page is full, the period ends, or MAX_SEARCH_READS
 * requests were made (then `next` lets "Vis flere" go on). Without a text it is one plain page.
 */
export async function searchNotesPage(
  query: NotesQuery,
  text: string,
  fetchPage: (query: NotesQuery) => Promise<NotesPage>,
): Promise<NotesPage> {
  if (text === '') return fetchPage(query)
  const found: NotesPage['notes'] = []
  let skipped = 0
  let after = query.after
  for (let reads = 0; reads < MAX_SEARCH_READS; reads++) {
    const page = await fetchPage({ ...query, after, limit: SEARCH_BATCH })
    found.push(...page.notes.filter((note) => matchesText(note, text)))
    skipped += page.skipped
    after = page.next
    if (after === null || found.length >= query.limit) break
  }
  return { notes: found, skipped, next: after }
}

/** What a diary list shows: a location's (or some persons') entries of a period, maybe with a text. */
export type NotesList = { locationId: string; personIds: readonly string[]; from: string; to: string; text: string }

/**
 * The list a diary shows for its filter: a location's chosen persons (at most MAX_PERSON_FILTER), or
 * all of `ownPersonIds` (a borger's own diary), in the filter's period and text. Dagbøger's page and
 * its early read (app/page-data.ts) both ask for it, so they share one cache entry.
 */
export function diaryList(locationId: string, filter: NotesFilter, ownPersonIds?: readonly string[]): NotesList {
  return {
    locationId,
    personIds: ownPersonIds ?? filter.personIds.slice(0, MAX_PERSON_FILTER),
    from: filter.from,
    to: filter.to,
    text: filter.query,
  }
}

export function notesListQueryOptions({ locationId, personIds, from, to, text }: NotesList) {
  return infiniteQueryOptions({
    queryKey: noteKeys.list(locationId, personIds, from, to, text),
    queryFn: ({ pageParam }) =>
      searchNotesPage(
        { locationId, personIds, from, to, after: pageParam, limit: NOTES_PAGE_SIZE },
        text,
        getNotesPage,
      ),
    initialPageParam: null as NotesCursor | null,
    getNextPageParam: (page) => page.next ?? undefined,
  })
}

/**
 * The diary list page by page ("Vis flere" is `fetchNextPage`), read again when an entry of its
 * first page is written, corrected or deleted (a colleague's new entry is the newest, so it is there).
 */
export function useNotesList(list: NotesList) {
  const options = notesListQueryOptions(list)
  const query = useInfiniteQuery(options)
  const queryClient = useQueryClient()
  const { locationId, personIds, from, to, text } = list
  useLiveRefetch(
    options.queryKey,
    query.isSuccess ? notesQuerySpec({ locationId, personIds, from, to, after: null, limit: NOTES_PAGE_SIZE }) : null,
    ({ docs }) =>
      queryClient.setQueryData(options.queryKey, (data) =>
        data === undefined ? data : withFirstPage(data, toNotes(docs).items, text),
      ),
  )
  return query
}

/**
 * The list with the entries of its first page as the device's cache has them (the user's own entry
 * written offline, a correction): each replaces its older copy or joins the first page, newest first.
 * No entry leaves the list here; the server's next answer settles the pages' edges.
 */
export function withFirstPage<T extends { pages: NotesPage[] }>(
  data: T,
  heard: readonly StoredNote[],
  text: string,
): T {
  const shown = heard.filter((note) => matchesText(note, text))
  const byKey = new Map(shown.map((note) => [`${note.personId}/${note.id}`, note]))
  const pages = data.pages.map((page) => ({
    ...page,
    notes: page.notes.map((note) => {
      const key = `${note.personId}/${note.id}`
      const newer = byKey.get(key)
      byKey.delete(key)
      return newer ?? note
    }),
  }))
  const [first, ...rest] = pages
  if (first === undefined) return data
  const notes = [...byKey.values(), ...first.notes].sort(newestFirst)
  return { ...data, pages: [{ ...first, notes }, ...rest] }
}

/** The list's order (day, then time written, newest first), as the query sorts it. */
const newestFirst = (a: StoredNote, b: StoredNote) =>
  b.day.localeCompare(a.day) || b.createdAt.localeCompare(a.createdAt)
