import { DEFAULT_LOCATION_FEATURES, type LocationFeatures, SubscriptionSchema } from '@bosted/domain/location'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import type { LocationSummary } from '../locations-store.ts'
import { resolveLogoUrl } from './resolve-logo-url.ts'

/**
 * The user's locations, read one by one by id (a user only sees the locations in their `locations`
 * array, SPEC §4). Missing ones are skipped; a failure is logged and yields none.
 */
export async function getLocations(ids: readonly string[]): Promise<LocationSummary[]> {
  try {
    const [db, { doc, getDoc }] = await Promise.all([getDb(), firestoreLite()])
    const snapshots = await Promise.all(ids.map((id) => getDoc(doc(db, 'locations', id))))
    const found = snapshots.filter((snapshot) => snapshot.exists())
    return await Promise.all(
      found.map(async (snapshot) => {
        const data = snapshot.data()
        const reminder = data.settings?.notifications?.reminderTime
        const order = data.settings?.answerOptions
        return {
          id: snapshot.id,
          name: typeof data.name === 'string' ? data.name : snapshot.id,
          logoUrl: await resolveLogoUrl(data.logoUrl ?? data.logo),
          reminderTime: typeof reminder === 'string' ? reminder : null,
          answerOptions: Array.isArray(order) ? order.filter((id): id is string => typeof id === 'string') : [],
          features: locationFeatures(data.settings?.features),
          subscription: SubscriptionSchema.safeParse(data.settings?.subscription).data ?? null,
        }
      }),
    )
  } catch (error) {
    console.warn('loading the locations failed', error)
    return []
  }
}

/** A location's stored features over the defaults (a location written before features existed has none). */
export function locationFeatures(stored: unknown): LocationFeatures {
  const features = { ...DEFAULT_LOCATION_FEATURES }
  if (typeof stored === 'object' && stored !== null)
    for (const key of Object.keys(features) as (keyof LocationFeatures)[]) {
      const value = (stored as Record<string, unknown>)[key]
      if (typeof value === 'boolean') features[key] = value
    }
  return features
}
