import { expect, test } from 'vitest'
import { addDays, dayOf, instantAt, isDay, isoWeek, startOfDay, weekDays, weekStart } from './days.ts'

test('the day before and after a DST change is one calendar day away, not 23 or 25 hours', () => {
  expect(addDays('2026-03-28', 1)).toBe('2026-03-29')
  expect(addDays('2026-03-29', 1)).toBe('2026-03-30')
  expect(addDays('2026-03-30', -1)).toBe('2026-03-29')
  expect(addDays('2026-10-24', 1)).toBe('2026-10-25')
  expect(addDays('2026-10-25', 1)).toBe('2026-10-26')
  expect(addDays('2026-10-26', -2)).toBe('2026-10-24')
})

test('days move across month and year ends, leap days included', () => {
  expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
  expect(addDays('2027-01-01', -1)).toBe('2026-12-31')
  expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
  expect(addDays('2027-02-28', 1)).toBe('2027-03-01')
  expect(addDays('2026-12-25', 14)).toBe('2027-01-08')
})

test('a Copenhagen day is the local date, also around midnight UTC and the DST changes', () => {
  expect(dayOf('2026-12-31T23:30:00.000Z')).toBe('2027-01-01')
  expect(dayOf('2026-03-28T23:30:00.000Z')).toBe('2026-03-29')
  expect(dayOf('2026-10-24T22:30:00.000Z')).toBe('2026-10-25')
  expect(dayOf('2026-10-25T22:30:00.000Z')).toBe('2026-10-25')
})

test('a wall-clock time on a DST day is the right instant', () => {
  // 29 March 2026: 02:00 CET becomes 03:00 CEST.
  expect(startOfDay('2026-03-29').toISOString()).toBe('2026-03-28T23:00:00.000Z')
  expect(instantAt('2026-03-29', '20:00').toISOString()).toBe('2026-03-29T18:00:00.000Z')
  expect(startOfDay('2026-03-30').toISOString()).toBe('2026-03-29T22:00:00.000Z')
  // 25 October 2026: 03:00 CEST becomes 02:00 CET.
  expect(startOfDay('2026-10-25').toISOString()).toBe('2026-10-24T22:00:00.000Z')
  expect(instantAt('2026-10-25', '20:00').toISOString()).toBe('2026-10-25T19:00:00.000Z')
  expect(startOfDay('2026-10-26').toISOString()).toBe('2026-10-25T23:00:00.000Z')
})

test('only real calendar days count as days', () => {
  expect(isDay('2026-02-28')).toBe(true)
  expect(isDay('2028-02-29')).toBe(true)
  expect(isDay('2026-02-29')).toBe(false)
  expect(isDay('2026-13-01')).toBe(false)
  expect(isDay('26-01-01')).toBe(false)
  expect(isDay('')).toBe(false)
  expect(isDay(null)).toBe(false)
})

test('a week starts on Monday, across year ends, with its ISO week number', () => {
  expect(weekStart('2026-11-23')).toBe('2026-11-23')
  expect(weekStart('2026-11-29')).toBe('2026-11-23')
  expect(weekStart('2027-01-01')).toBe('2026-12-28')
  expect(weekDays('2026-12-28')).toEqual([
    '2026-12-28',
    '2026-12-29',
    '2026-12-30',
    '2026-12-31',
    '2027-01-01',
    '2027-01-02',
    '2027-01-03',
  ])
  expect(isoWeek('2026-03-29')).toBe(13)
  expect(isoWeek('2027-01-01')).toBe(53)
  expect(isoWeek('2027-01-04')).toBe(1)
  expect(isoWeek('2025-12-29')).toBe(1)
})
