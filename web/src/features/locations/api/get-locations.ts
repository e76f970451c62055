import { locationFeatures } from '@bosted/domain/location-features'
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
          subscription: storedSubscription(data.settings?.subscription),
        }
      }),
    )
  } catch (error) {
    console.warn('loading the locations failed', error)
    return []
  }
}

/** The stored subscription when it has the shape the status needs, else none. */
function storedSubscription(value: unknown): LocationSummary['subscription'] {
  if (typeof value !== 'object' || value === null) return null
  const { amount, createdAt, validUntil } = value as Record<string, unknown>
  if (typeof amount !== 'number' || typeof createdAt !== 'string' || typeof validUntil !== 'string') return null
  return { amount, createdAt, validUntil }
}
