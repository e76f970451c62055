import { expect, test, vi } from 'vitest'
import type { NotesPage } from './get-notes-page.ts'
import type { StoredNote } from './note-document.ts'
import type { NotesQuery } from './notes-query.ts'
import { MAX_SEARCH_READS, SEARCH_BATCH, searchNotesPage } from './search-notes.ts'

const query: NotesQuery = {
  locationId: 'loc',
  personIds: [],
  from: '2026-01-01',
  to: '2026-03-31',
  after: null,
  limit: 2,
}
const note = (id: string, text: string) => ({ id, text, day: '2026-03-01', createdAt: id }) as unknown as StoredNote

test('without a search text one plain page is read', async () => {
  const page: NotesPage = { notes: [note('a', 'x')], skipped: 0, next: null }
  const fetchPage = vi.fn(async () => page)
  expect(await searchNotesPage(query, '', fetchPage)).toBe(page)
  expect(fetchPage).toHaveBeenCalledWith(query)
})

test('a search reads batches after each other until the page is full', async () => {
  const batches: NotesPage[] = [
    { notes: [note('1', 'uro'), note('2', 'søvn')], skipped: 1, next: { day: 'd', createdAt: '2', path: 'x/2' } },
    { notes: [note('3', 'rolig'), note('4', 'god søvn')], skipped: 0, next: { day: 'd', createdAt: '4', path: 'x/4' } },
    { notes: [note('5', 'søvn')], skipped: 0, next: null },
  ]
  const fetchPage = vi.fn(async (_asked: NotesQuery) => batches.shift() as NotesPage)
  const page = await searchNotesPage(query, 'SØVN', fetchPage)
  expect(page.notes.map((found) => found.id)).toEqual(['2', '4'])
  expect(page.next).toEqual({ day: 'd', createdAt: '4', path: 'x/4' })
  // Entries the batches left out are counted for the notice.
  expect(page.skipped).toBe(1)
  expect(fetchPage).toHaveBeenCalledTimes(2)
  expect(fetchPage.mock.calls[0]?.[0]).toMatchObject({ after: null, limit: SEARCH_BATCH })
  expect(fetchPage.mock.calls[1]?.[0]).toMatchObject({ after: { day: 'd', createdAt: '2', path: 'x/2' } })
})

test('a search stops after a bounded number of reads and lets "Vis flere" go on from there', async () => {
  const fetchPage = vi.fn(async (asked: NotesQuery) => ({
    notes: [note(`n${asked.after?.createdAt ?? 0}`, 'intet her')],
    skipped: 0,
    next: { day: 'd', createdAt: String(Number(asked.after?.createdAt ?? 0) + 1), path: 'x' },
  }))
  const page = await searchNotesPage(query, 'søvn', fetchPage)
  expect(page.notes).toEqual([])
  expect(fetchPage).toHaveBeenCalledTimes(MAX_SEARCH_READS)
  expect(page.next).toEqual({ day: 'd', createdAt: String(MAX_SEARCH_READS), path: 'x' })
})
