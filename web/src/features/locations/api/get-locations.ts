import { LocationSchema } from '@bosted/domain/location'
import { locationPath } from '@bosted/domain/paths'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { queryClient } from '../../../lib/query-client.ts'
import type { LocationSummary } from '../locations-store.ts'
import { locationKeys } from './keys.ts'
import { resolveLogoUrl } from './resolve-logo-url.ts'

/**
 * The user's locations, read one by one by id (a user only sees the locations in their `locations`
 * array, REQ-ACTIVE-4), each parsed with the domain's schema. Missing ones are skipped; a failed read or a
 * location that does not fit its schema throws (the page shows its error state).
 */
export async function getLocations(ids: readonly string[]): Promise<LocationSummary[]> {
  if (ids.length === 0) return []
  const [db, { doc, getDoc }] = await Promise.all([getDb(), firestoreLite()])
  const snapshots = await Promise.all(ids.map((id) => getDoc(doc(db, locationPath(id)))))
  const found = snapshots.filter((snapshot) => snapshot.exists())
  return await Promise.all(
    found.map(async (snapshot) => {
      const data = snapshot.data()
      const location = LocationSchema.parse({ ...data, id: snapshot.id })
      return {
        id: location.id,
        name: location.name,
        // Older locations keep their logo under `logo`.
        logoUrl: await resolveLogoUrl(location.logoUrl ?? data.logo),
        reminderTime: location.settings.notifications?.reminderTime ?? null,
        answerOptions: location.settings.answerOptions,
        features: location.settings.features,
        subscription: location.settings.subscription,
      }
    }),
  )
}

export function locationsQueryOptions(ids: readonly string[]) {
  return queryOptions({ queryKey: locationKeys.list(ids), queryFn: () => getLocations(ids) })
}

/** The locations `ids` (the signed-in user's), for the header, the banners and each page. */
export function useLocations(ids: readonly string[]) {
  return useQuery(locationsQueryOptions(ids))
}

/**
 * For the session guard: the locations in the cache before the first page shows (read once; the
 * cache's copy after that). A failure is left in the cache for the page to show.
 */
export async function loadLocations(ids: readonly string[]): Promise<LocationSummary[] | null> {
  try {
    return await queryClient.ensureQueryData(locationsQueryOptions(ids))
  } catch {
    return null
  }
}

/** Starts reading the locations early (right after a sign-in); the guard then waits for the same read. */
export function prefetchLocations(ids: readonly string[]): void {
  void queryClient.prefetchQuery(locationsQueryOptions(ids))
}

/** Reads every list of locations again (after an admin changed one): the header and pages follow. */
export function refreshLocations(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: locationKeys.all })
}
