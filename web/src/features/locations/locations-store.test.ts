import { beforeEach, expect, test } from 'vitest'
import {
  clearActiveLocation,
  getActiveLocation,
  locations,
  pickActiveLocationId,
  removeLocation,
  selectLocation,
  setLocations,
} from './locations-store.ts'

const list = [
  { id: 'a', name: 'Åbo', logoUrl: null },
  { id: 'b', name: 'Birkely', logoUrl: 'https://x/logo.png' },
]

beforeEach(() => {
  localStorage.clear()
  clearActiveLocation()
})

test('restores the stored active location when it is still among the locations', () => {
  localStorage.setItem('activeLocationId', 'b')
  setLocations(list)
  expect(locations.activeId).toBe('b')
  expect(getActiveLocation()?.name).toBe('Birkely')
})

test('falls back to the first location and saves it when the stored one is gone', () => {
  localStorage.setItem('activeLocationId', 'gone')
  setLocations(list)
  expect(locations.activeId).toBe('a')
  expect(localStorage.getItem('activeLocationId')).toBe('a')
})

test('choosing a location saves it; an unknown id is ignored', () => {
  setLocations(list)
  selectLocation('b')
  expect(localStorage.getItem('activeLocationId')).toBe('b')
  selectLocation('not-mine')
  expect(locations.activeId).toBe('b')
})

test('deleting the active location switches to the first remaining one, or clears it when none remain', () => {
  setLocations(list)
  removeLocation('a')
  expect(locations.activeId).toBe('b')
  removeLocation('b')
  expect(locations.activeId).toBeNull()
  expect(localStorage.getItem('activeLocationId')).toBeNull()
})

test('clearing the session clears the active location', () => {
  setLocations(list)
  clearActiveLocation()
  expect(locations.list).toEqual([])
  expect(localStorage.getItem('activeLocationId')).toBeNull()
})

test('no locations means no active location', () => {
  expect(pickActiveLocationId([], 'a')).toBeNull()
})
