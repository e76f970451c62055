import { PersonSchema } from '@bosted/domain/person'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { adminOverviewQueryOptions } from '../features/admin/api/get-admin-overview.ts'
import { dayNoteCountsQueryOptions } from '../features/notes/api/get-day-note-counts.ts'
import { personNotesQueryOptions } from '../features/notes/api/get-person-notes.ts'
import { diaryList, notesListQueryOptions } from '../features/notes/api/search-notes.ts'
import { parseNotesFilter } from '../features/notes/notes-filter.ts'
import { locationPersonsQueryOptions } from '../features/persons/api/get-location-persons.ts'
import { personQueryOptions } from '../features/persons/api/get-person.ts'
import { dayRegistrationsQueryOptions } from '../features/registrations/api/get-day-registrations.ts'
import { personRegistrationsQueryOptions } from '../features/registrations/api/get-person-registrations.ts'
import type { SessionUser } from '../features/session/session-store.ts'
import { statisticsQueryOptions } from '../features/statistics/use-statistics.ts'
import { queryClient } from '../lib/query-client.ts'
import { prefetchPageData, prefetchPersonPageData } from './page-data.ts'

// Firestore is the edge (replaced at its loader, as in session.test.ts): every read is recorded as
// the path and constraints it asks for. persons/b1 is a borger with a record; anyone else has none.
const reads: string[] = []
vi.mock('../lib/firestore.ts', () => ({
  getDb: async () => ({}),
  firestoreLite: async () => ({
    doc: (_db: unknown, ...path: string[]) => path.join('/'),
    collection: (_db: unknown, ...path: string[]) => path.join('/'),
    collectionGroup: (_db: unknown, id: string) => `**/${id}`,
    where: (field: string, op: string, value: string) => `${field} ${op} ${value}`,
    orderBy: (field: string, direction: string) => `order ${field} ${direction}`,
    documentId: () => '__name__',
    limit: (count: number) => `limit ${count}`,
    query: (source: string, ...constraints: string[]) => [source, ...constraints].join(' | '),
    getDocs: async (query: string) => {
      reads.push(query)
      return { docs: [] }
    },
    getDoc: async (path: string) => {
      reads.push(path)
      const data =
        path === 'persons/b1'
          ? PersonSchema.parse({ id: 'b1', createdAt: '2026-01-01T00:00:00.000Z', locationId: 'a' })
          : undefined
      return { id: path.split('/')[1], exists: () => data !== undefined, data: () => data }
    },
  }),
}))

const staff: SessionUser = { id: 'u1', firstName: 'A', lastName: 'B', customClaims: {}, locations: ['a'] }
const borger = (id: string): SessionUser => ({ ...staff, id, kind: 'person', locations: [] })
const url = (path: string) => new URL(path, 'http://localhost')

/** Every query started has settled (the mocked reads answer at once; the modules some pages import load). */
const settled = async () => {
  for (let round = 0; round < 5; round += 1) {
    await vi.dynamicImportSettled()
    await vi.advanceTimersByTimeAsync(0)
  }
}
const cached = (queryKey: readonly unknown[]) => queryClient.getQueryState(queryKey)?.status

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-03-04T10:00:00Z') })
  reads.length = 0
})
afterEach(() => {
  queryClient.clear()
  vi.useRealTimers()
})

test("/daily: the location's persons and the day's registrations and note counts, under the page's own keys", async () => {
  prefetchPageData(url('/daily?day=2026-03-01'), staff, 'a')
  await settled()
  expect(reads.sort()).toEqual([
    '**/notes | locationId == a | day == 2026-03-01',
    '**/registrations | locationId == a | day == 2026-03-01',
    'persons | locationId == a',
  ])
  expect(cached(locationPersonsQueryOptions('a').queryKey)).toBe('success')
  expect(cached(dayRegistrationsQueryOptions('a', '2026-03-01').queryKey)).toBe('success')
  expect(cached(dayNoteCountsQueryOptions('a', '2026-03-01').queryKey)).toBe('success')
})

test('/daily without a valid ?day= reads today', async () => {
  prefetchPageData(url('/daily?day=nope'), staff, 'a')
  await settled()
  expect(reads).toContain('**/registrations | locationId == a | day == 2026-03-04')
})

test('nothing is read without a location, for a borger outside "Min dag", or on a page without such reads', async () => {
  prefetchPageData(url('/daily'), staff, null)
  prefetchPageData(url('/daily'), borger('b1'), 'a')
  prefetchPageData(url('/notes'), staff, null)
  prefetchPageData(url('/statistics'), staff, null)
  prefetchPageData(url('/me'), staff, 'a')
  await settled()
  expect(reads).toEqual([])
})

test("/notes: the location's persons and the first page of the diary list the URL's filter asks for, under the page's keys", async () => {
  const search = '?persons=p1,p2&from=2026-02-01&to=2026-02-10'
  prefetchPageData(url(`/notes${search}`), staff, 'a')
  await settled()
  expect(reads.sort()).toEqual([
    '**/notes | locationId == a | personId in p1,p2 | day >= 2026-02-01 | day <= 2026-02-10 | order day desc | order createdAt desc | order __name__ desc | limit 26',
    'persons | locationId == a',
  ])
  const filter = parseNotesFilter(new URLSearchParams(search), '2026-03-04')
  expect(cached(locationPersonsQueryOptions('a').queryKey)).toBe('success')
  expect(cached(notesListQueryOptions(diaryList('a', filter)).queryKey)).toBe('success')
})

test("Statistik: the location's persons, and the figures' data of the URL's period from the api, under the page's keys", async () => {
  const asked: string[] = []
  const figures = { from: '2026-02-01', to: '2026-02-10', persons: [], answers: [], registrations: [], notes: [] }
  vi.stubGlobal('fetch', async (input: string) => {
    asked.push(input)
    const data = { ...figures, previousNotes: 0, skipped: { registrations: 0, notes: 0 } }
    return new Response(JSON.stringify({ data }), { headers: { 'content-type': 'application/json' } })
  })
  try {
    for (const page of ['/statistics', '/statistics/statistics'])
      prefetchPageData(url(`${page}?from=2026-02-01&to=2026-02-10`), staff, 'a')
    await settled()
    expect(reads).toEqual(['persons | locationId == a'])
    expect(asked).toEqual(['/api/statistics?locationId=a&from=2026-02-01&to=2026-02-10'])
    expect(cached(statisticsQueryOptions('a', { from: '2026-02-01', to: '2026-02-10' }).queryKey)).toBe('success')
  } finally {
    vi.unstubAllGlobals()
  }
})

test("/admin: the overview (every location, person and staff member) for an admin only, under the page's key", async () => {
  prefetchPageData(url('/admin'), staff, 'a')
  await settled()
  expect(reads).toEqual([])
  prefetchPageData(url('/admin'), { ...staff, customClaims: { admin: true } }, 'a')
  await settled()
  expect(reads.sort()).toEqual(['locations', 'persons', 'users'])
  expect(cached(adminOverviewQueryOptions().queryKey)).toBe('success')
})

test('"Min dag": the borger\'s own record, then their own last seven days', async () => {
  prefetchPageData(url('/me'), borger('b1'), null)
  await settled()
  expect(reads).toEqual([
    'persons/b1',
    'persons/b1/registrations | day >= 2026-02-26 | day <= 2026-03-04',
    'persons/b1/notes | day >= 2026-02-26 | day <= 2026-03-04',
  ])
  expect(cached(personQueryOptions('b1').queryKey)).toBe('success')
  expect(cached(personRegistrationsQueryOptions('b1', '2026-02-26', '2026-03-04').queryKey)).toBe('success')
  expect(cached(personNotesQueryOptions('b1', '2026-02-26', '2026-03-04').queryKey)).toBe('success')
})

test('"Min dag" without a record of their own reads nothing more', async () => {
  prefetchPageData(url('/me'), borger('b2'), null)
  await settled()
  expect(reads).toEqual(['persons/b2'])
})

test("a person's daily tab: the week of ?week= and the chart's last 30 days; other tabs nothing", async () => {
  prefetchPersonPageData(url('/person/p1/daily?week=2026-02-18'), 'p1')
  prefetchPersonPageData(url('/person/p1/notes'), 'p1')
  await settled()
  expect(reads).toEqual([
    'persons/p1/registrations | day >= 2026-02-16 | day <= 2026-02-22',
    'persons/p1/registrations | day >= 2026-02-03 | day <= 2026-03-04',
  ])
  expect(cached(personRegistrationsQueryOptions('p1', '2026-02-16', '2026-02-22').queryKey)).toBe('success')
})
