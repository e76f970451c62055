import { beforeEach, expect, test } from 'vitest'
import {
  activeLocation,
  clearActiveLocation,
  expectedActiveLocationId,
  locations,
  pickActiveLocationId,
  removeLocation,
  restoreActiveLocation,
  selectLocation,
} from './locations-store.ts'

const list = [
  { id: 'a', name: 'Åbo', logoUrl: null },
  { id: 'b', name: 'Birkely', logoUrl: 'https://x/logo.png' },
]
const ids = list.map((location) => location.id)

beforeEach(() => {
  localStorage.clear()
  clearActiveLocation()
})

test('restores the stored active location when it is still among the locations', () => {
  localStorage.setItem('activeLocationId', 'b')
  restoreActiveLocation(ids)
  expect(locations.activeId).toBe('b')
  expect(activeLocation(list, locations.activeId)?.name).toBe('Birkely')
})

test('falls back to the first location and saves it when the stored one is gone', () => {
  localStorage.setItem('activeLocationId', 'gone')
  restoreActiveLocation(ids)
  expect(locations.activeId).toBe('a')
  expect(localStorage.getItem('activeLocationId')).toBe('a')
})

test('choosing a location saves it; an unknown id is ignored', () => {
  restoreActiveLocation(ids)
  selectLocation('b', ids)
  expect(localStorage.getItem('activeLocationId')).toBe('b')
  selectLocation('not-mine', ids)
  expect(locations.activeId).toBe('b')
})

test('deleting the active location switches to the first remaining one, or clears it when none remain', () => {
  restoreActiveLocation(ids)
  removeLocation('a')
  expect(activeLocation(list.slice(1), locations.activeId)?.id).toBe('b')
  selectLocation('b', ['b'])
  removeLocation('b')
  expect(activeLocation([], locations.activeId)).toBeNull()
  expect(locations.activeId).toBeNull()
  expect(localStorage.getItem('activeLocationId')).toBeNull()
})

test('clearing the session clears the active location', () => {
  restoreActiveLocation(ids)
  clearActiveLocation()
  expect(locations.activeId).toBeNull()
  expect(localStorage.getItem('activeLocationId')).toBeNull()
})

test('no locations means no active location', () => {
  expect(pickActiveLocationId([], 'a')).toBeNull()
})

test('before the locations are read: the choice in effect, else the stored one, else the first; nothing saved', () => {
  expect(expectedActiveLocationId(ids)).toBe('a')
  expect(expectedActiveLocationId([])).toBe(null)
  localStorage.setItem('activeLocationId', 'b')
  expect(expectedActiveLocationId(ids)).toBe('b')
  localStorage.setItem('activeLocationId', 'gone')
  expect(expectedActiveLocationId(ids)).toBe('a')
  expect(localStorage.getItem('activeLocationId')).toBe('gone')
  selectLocation('b', ids)
  localStorage.setItem('activeLocationId', 'a')
  expect(expectedActiveLocationId(ids)).toBe('b')
  // A choice that is not among this user's locations does not count.
  expect(expectedActiveLocationId(['a'])).toBe('a')
})
