import { adminOverviewQueryOptions } from '../features/admin/api/get-admin-overview.ts'
import { diaryList, notesListQueryOptions } from '../features/notes/api/search-notes.ts'
import { parseNotesFilter } from '../features/notes/notes-filter.ts'
import { locationPersonsQueryOptions } from '../features/persons/api/get-location-persons.ts'
import type { SessionUser } from '../features/session/session-store.ts'
import { statisticsQueryOptions } from '../features/statistics/use-statistics.ts'
import { today } from '../lib/days.ts'
import { paths, patterns } from '../lib/paths.ts'
import { queryClient } from '../lib/query-client.ts'

/** Statistik's two addresses (the menu's and the overview tab's). */
const isStatistics = (url: URL) => url.pathname === patterns.statistics || url.pathname === patterns.statisticsOverview

/**
 * prefetchPageData's part for the pages whose queries' code is not in the signed-in shell (Dagbøger,
 * Statistik, Administration), loaded by it on demand: the same queries as the pages, under their keys,
 * by the same reader.
 */
export function prefetchLazyPageData(url: URL, user: SessionUser, locationId: string | null): void {
  if (url.pathname === paths.notes && locationId !== null) {
    // Dagbøger: the location's persons and the first page of the diary list the URL's filter asks for.
    void queryClient.prefetchQuery(locationPersonsQueryOptions(locationId))
    const filter = parseNotesFilter(url.searchParams, today())
    void queryClient.prefetchInfiniteQuery(notesListQueryOptions(diaryList(locationId, filter)))
  }
  if (isStatistics(url) && locationId !== null) {
    // Statistik: the location's persons (the filter and the names) and the figures' data of the URL's
    // period, from the api, which checks access and logs each person read as the page's read would.
    void queryClient.prefetchQuery(locationPersonsQueryOptions(locationId))
    const { from, to } = parseNotesFilter(url.searchParams, today())
    void queryClient.prefetchQuery(statisticsQueryOptions(locationId, { from, to }))
  }
  if (url.pathname === paths.admin.index && user.customClaims.admin === true) {
    // Administration (admins only, as the router's check): every location, person and staff member.
    void queryClient.prefetchQuery(adminOverviewQueryOptions())
  }
}
