import { ACTIVE_LOCATION_STORAGE_KEY } from '@bosted/domain/constants'
import type { Subscription } from '@bosted/domain/location'
import type { LocationFeatures } from '@bosted/domain/location-features'
import { proxy } from 'valtio'

/** What the shell needs of a location; the active location includes its logo (SPEC §3). */
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

export const locations = proxy({
  list: [] as LocationSummary[],
  activeId: null as string | null,
  loaded: false,
})

/** The stored choice when it is still among the locations, else the first one (SPEC §4). */
export function pickActiveLocationId(ids: readonly string[], storedId: string | null): string | null {
  if (storedId !== null && ids.includes(storedId)) return storedId
  return ids[0] ?? null
}

function save(id: string | null, storage: StorageLike): void {
  if (id === null) storage.removeItem(ACTIVE_LOCATION_STORAGE_KEY)
  else storage.setItem(ACTIVE_LOCATION_STORAGE_KEY, id)
}

/** Called when the user's locations have loaded: restores the saved choice or picks and saves the first. */
export function setLocations(list: LocationSummary[], storage: StorageLike = localStorage): void {
  const activeId = pickActiveLocationId(
    list.map((location) => location.id),
    storage.getItem(ACTIVE_LOCATION_STORAGE_KEY),
  )
  locations.list = list
  locations.activeId = activeId
  locations.loaded = true
  save(activeId, storage)
}

export function selectLocation(id: string, storage: StorageLike = localStorage): void {
  if (!locations.list.some((location) => location.id === id)) return
  locations.activeId = id
  save(id, storage)
}

/** Deleting the active location switches to the first remaining one, or clears it when none remain. */
export function removeLocation(id: string, storage: StorageLike = localStorage): void {
  locations.list = locations.list.filter((location) => location.id !== id)
  if (locations.activeId === id) {
    locations.activeId = locations.list[0]?.id ?? null
    save(locations.activeId, storage)
  }
}

/** No or an invalid session clears the active location too (SPEC §4). */
export function clearActiveLocation(storage: StorageLike = localStorage): void {
  locations.list = []
  locations.activeId = null
  locations.loaded = false
  storage.removeItem(ACTIVE_LOCATION_STORAGE_KEY)
}

export function getActiveLocation(): LocationSummary | null {
  return locations.list.find((location) => location.id === locations.activeId) ?? null
}
