import { ACTIVE_LOCATION_STORAGE_KEY } from '@bosted/domain/constants'
import type { Subscription } from '@bosted/domain/location'
import type { LocationFeatures } from '@bosted/domain/location-features'
import { proxy } from 'valtio'

/** What the shell needs of a location; the active location includes its logo (REQ-MODEL-3). */
export type LocationSummary = {
  id: string
  name: string
  logoUrl: string | null
  /** The location's daily reminder time 'HH:MM' (settings.notifications), the daily overview's default. */
  reminderTime?: string | null
  /** Ids of the location's answer options in display order (ADR 0003). */
  answerOptions?: readonly string[]
  /** What an admin turned on for the location (settings.features; defaults where not set). */
  features?: LocationFeatures
  /** The location's subscription (settings.subscription), for the expired banner. */
  subscription?: Subscription | null
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/**
 * UI state only: which of the user's locations is active. The list itself is server state, in the
 * query cache (`useLocations`, api/get-locations.ts).
 */
export const locations = proxy({ activeId: null as string | null })

/** The stored choice when it is still among the locations, else the first one (REQ-ACTIVE-2). */
export function pickActiveLocationId(ids: readonly string[], storedId: string | null): string | null {
  if (storedId !== null && ids.includes(storedId)) return storedId
  return ids[0] ?? null
}

function save(id: string | null, storage: StorageLike): void {
  if (id === null) storage.removeItem(ACTIVE_LOCATION_STORAGE_KEY)
  else storage.setItem(ACTIVE_LOCATION_STORAGE_KEY, id)
}

/** Called when the user's locations have loaded: restores the saved choice or picks and saves the first. */
export function restoreActiveLocation(ids: readonly string[], storage: StorageLike = localStorage): void {
  const activeId = pickActiveLocationId(ids, storage.getItem(ACTIVE_LOCATION_STORAGE_KEY))
  locations.activeId = activeId
  save(activeId, storage)
}

/**
 * The location that will be active among `ids` (the user's) before their documents are read: the
 * choice in effect, else the stored one, else the first (REQ-ACTIVE-2). Nothing is saved.
 */
export function expectedActiveLocationId(ids: readonly string[], storage: StorageLike = localStorage): string | null {
  if (locations.activeId !== null && ids.includes(locations.activeId)) return locations.activeId
  return pickActiveLocationId(ids, storage.getItem(ACTIVE_LOCATION_STORAGE_KEY))
}

/** Choosing one of `ids` (the user's locations) saves it; an unknown id is ignored. */
export function selectLocation(id: string, ids: readonly string[], storage: StorageLike = localStorage): void {
  if (!ids.includes(id)) return
  locations.activeId = id
  save(id, storage)
}

/** Deleting the active location forgets the choice: the first remaining one is active (`activeLocation`). */
export function removeLocation(id: string, storage: StorageLike = localStorage): void {
  if (locations.activeId !== id) return
  locations.activeId = null
  save(null, storage)
}

/** No or an invalid session clears the active location too (REQ-SESSION-1). */
export function clearActiveLocation(storage: StorageLike = localStorage): void {
  locations.activeId = null
  storage.removeItem(ACTIVE_LOCATION_STORAGE_KEY)
}

/** The active one of `list`: the chosen location while it is still there, else the first, else none. */
export function activeLocation<T extends { id: string }>(list: readonly T[], activeId: string | null): T | null {
  const id = pickActiveLocationId(
    list.map((location) => location.id),
    activeId,
  )
  return list.find((location) => location.id === id) ?? null
}
