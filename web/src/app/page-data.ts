import { dayNoteCountsQueryOptions } from '../features/notes/api/get-day-note-counts.ts'
import { personNotesQueryOptions } from '../features/notes/api/get-person-notes.ts'
import { locationPersonsQueryOptions } from '../features/persons/api/get-location-persons.ts'
import { personQueryOptions } from '../features/persons/api/get-person.ts'
import { dayRegistrationsQueryOptions } from '../features/registrations/api/get-day-registrations.ts'
import { personRegistrationsQueryOptions } from '../features/registrations/api/get-person-registrations.ts'
import type { SessionUser } from '../features/session/session-store.ts'
import { isDay, today } from '../lib/days.ts'
import { paths, readsAheadLazily } from '../lib/paths.ts'
import { queryClient } from '../lib/query-client.ts'
import { myDaysFrom } from './me-range.ts'
import { personDailyRange } from './routes/person/daily-range.ts'

/**
 * A page's first reads, started as soon as the signed-in user is known (issue 34): beside the
 * locations' read and the route's code instead of after the page has loaded and rendered. Each is the
 * very query the page makes (the same options, so the page finds it under way or done in the cache),
 * with the same reader, so the rules and the Adgangslog see what they would have seen a moment later.
 * Nothing is read that the page itself would not read first. At an app start they begin with the
 * locations this browser remembers (session.ts, `readAheadAsRemembered`), before the profile's read
 * confirms them (ADR 0035): had an administrator changed them since, that one read is of the location
 * the page showed last time, decided by the rules as any read is.
 */

/** The pictures of the persons on the page come through this module: its code is fetched with the data. */
const preloadPictures = () => import('../lib/avatars/api/download-image.ts').catch(() => {})

/**
 * The session guard's part, for the page at `url`: the signed-in user is fresh (claims and profile
 * just read), `locationId` the location the page will show (null: none, nothing is read).
 */
export function prefetchPageData(url: URL, user: SessionUser, locationId: string | null): void {
  if (user.kind === 'person') {
    // "Min dag": the borger's own record, then (when there is one) their own last days.
    if (url.pathname !== paths.me) return
    void queryClient.fetchQuery(personQueryOptions(user.id)).then(
      (person) => {
        if (person === null) return
        const day = today()
        void queryClient.prefetchQuery(personRegistrationsQueryOptions(user.id, myDaysFrom(day), day))
        void queryClient.prefetchQuery(personNotesQueryOptions(user.id, myDaysFrom(day), day))
        void preloadPictures()
      },
      () => {},
    )
    return
  }
  if (url.pathname === paths.daily && locationId !== null) {
    const requested = url.searchParams.get('day')
    const day = isDay(requested) ? requested : today()
    void queryClient.prefetchQuery(locationPersonsQueryOptions(locationId))
    void queryClient.prefetchQuery(dayRegistrationsQueryOptions(locationId, day))
    void queryClient.prefetchQuery(dayNoteCountsQueryOptions(locationId, day))
    void preloadPictures()
  }
  // Dagbøger, Statistik and Administration: their part is a file of its own (its code is in the app's
  // start chunk, ADR 0031), which preloadSessionStart (prefetch.ts) asks for as a visit to one of them starts.
  if (readsAheadLazily(url.pathname)) {
    void import('./page-data-lazy.ts').then(
      (pages) => pages.prefetchLazyPageData(url, user, locationId),
      () => {},
    )
  }
}

/**
 * The person route's part, once its loader has read the person (so the rules let this user read
 * them): the registrations the daily tab (`patterns.personDaily`) shows first, its week and the chart's
 * 30 days, and the code that downloads the person's picture.
 */
export function prefetchPersonPageData(url: URL, personId: string): void {
  void preloadPictures()
  if (url.pathname !== paths.person.daily(personId)) return
  const now = today()
  const { monday, sunday, chartFrom } = personDailyRange(url.searchParams.get('week'), now)
  void queryClient.prefetchQuery(personRegistrationsQueryOptions(personId, monday, sunday))
  void queryClient.prefetchQuery(personRegistrationsQueryOptions(personId, chartFrom, now))
}
