import { expect, test, vi } from 'vitest'
import type { NotesPage } from './get-notes-page.ts'
import type { StoredNote } from './note-document.ts'
import type { NotesQuery } from './notes-query.ts'
import { MAX_SEARCH_READS, SEARCH_BATCH, searchNotesPage, withFirstPage } from './search-notes.ts'

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

test("the device cache's first page (an entry written offline) joins the list, newest first, and leaves no entry out", () => {
  const entry = (id: string, day: string, text = id) =>
    ({ id, personId: 'p1', text, day, createdAt: `${day}T${id}` }) as unknown as StoredNote
  const data = {
    pages: [
      { notes: [entry('09', '2026-03-02'), entry('08', '2026-03-01')], skipped: 0, next: null },
      { notes: [entry('07', '2026-02-28')], skipped: 1, next: null },
    ],
    pageParams: [null, null],
  }
  const heard = [entry('10', '2026-03-02', 'ny'), entry('09', '2026-03-02', 'rettet')]
  const merged = withFirstPage(data, heard, '')
  expect(merged.pages[0]?.notes.map((found) => `${found.id}:${found.text}`)).toEqual(['10:ny', '09:rettet', '08:08'])
  expect(merged.pages[1]).toEqual(data.pages[1])
  // Under a search, only what matches joins; a corrected entry is replaced wherever it is.
  const searched = withFirstPage(data, [entry('10', '2026-03-02', 'ny'), entry('07', '2026-02-28', 'søvn')], 'søvn')
  expect(searched.pages[0]?.notes.map((found) => found.id)).toEqual(['09', '08'])
  expect(searched.pages[1]?.notes.map((found) => found.text)).toEqual(['søvn'])
})
