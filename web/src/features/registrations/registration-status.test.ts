import { expect, test } from 'vitest'
import { countStatuses, dueAt, isFutureDay, registrationStatus, reminderTimeFor } from './registration-status.ts'

const at = (iso: string) => new Date(iso)
const LONG_AGO = '2024-01-01T09:00:00.000Z'

test('a person with a registration that day is registered, whatever the time', () => {
  expect(
    registrationStatus({ count: 1, day: '2026-11-23', reminderTime: '08:00', now: at('2026-11-24T12:00:00Z') }),
  ).toBe('registered')
})

test('today without a registration: not yet before the reminder, missing from the reminder on', () => {
  // 20:00 in Copenhagen is 19:00 UTC in November.
  const day = '2026-11-23'
  const input = { count: 0, day, reminderTime: '20:00', createdAt: LONG_AGO }
  expect(registrationStatus({ ...input, now: at('2026-11-23T18:59:00Z') })).toBe('notYet')
  expect(registrationStatus({ ...input, now: at('2026-11-23T19:00:00Z') })).toBe('missing')
})

test("the person's reminder time wins over the location's; without either the day's end applies", () => {
  expect(reminderTimeFor('19:00', '21:00')).toBe('19:00')
  expect(reminderTimeFor(null, '21:00')).toBe('21:00')
  expect(reminderTimeFor(undefined, null)).toBeNull()
  const day = '2026-11-23'
  expect(registrationStatus({ count: 0, day, reminderTime: null, now: at('2026-11-23T22:59:00Z') })).toBe('notYet')
  expect(registrationStatus({ count: 0, day, reminderTime: null, now: at('2026-11-23T23:00:00Z') })).toBe('missing')
})

test('a past day without a registration is missing; a future day is not yet due and is a day to come', () => {
  const now = at('2026-11-23T08:00:00Z')
  expect(registrationStatus({ count: 0, day: '2026-11-22', reminderTime: '20:00', now, createdAt: LONG_AGO })).toBe(
    'missing',
  )
  expect(registrationStatus({ count: 0, day: '2026-11-24', reminderTime: null, now, createdAt: LONG_AGO })).toBe(
    'notYet',
  )
  expect(isFutureDay('2026-11-24', now)).toBe(true)
  expect(isFutureDay('2026-11-23', now)).toBe(false)
  // 23:30 UTC on the 23rd is already the 24th in Copenhagen: the 24th is today, not a day to come.
  expect(isFutureDay('2026-11-24', at('2026-11-23T23:30:00Z'))).toBe(false)
})

test('a person created mid-period is not applicable before the day they were created, and counts from that day', () => {
  const now = at('2026-11-25T21:00:00Z')
  // Created 25 November 10:00 Copenhagen time.
  const createdAt = '2026-11-25T09:00:00.000Z'
  const status = (day: string, count = 0) => registrationStatus({ count, day, reminderTime: '20:00', now, createdAt })
  expect(status('2026-11-01')).toBe('notApplicable')
  expect(status('2026-11-24')).toBe('notApplicable')
  expect(status('2026-11-25')).toBe('missing')
  // A registration written for an earlier day still counts as one.
  expect(status('2026-11-24', 1)).toBe('registered')
  // Created 00:30 Copenhagen time on a day (23:30 UTC the day before) is there that day.
  expect(
    registrationStatus({
      count: 0,
      day: '2026-11-25',
      reminderTime: '20:00',
      now,
      createdAt: '2026-11-24T23:30:00.000Z',
    }),
  ).toBe('missing')
})

test('on the DST days the reminder is due at its wall-clock time and a person created that day counts', () => {
  expect(dueAt('2026-03-29', '20:00').toISOString()).toBe('2026-03-29T18:00:00.000Z')
  expect(dueAt('2026-10-25', '20:00').toISOString()).toBe('2026-10-25T19:00:00.000Z')
  expect(dueAt('2026-03-29', null).toISOString()).toBe('2026-03-29T22:00:00.000Z')
  expect(dueAt('2026-10-25', null).toISOString()).toBe('2026-10-25T23:00:00.000Z')
  expect(dueAt('2026-12-31', null).toISOString()).toBe('2026-12-31T23:00:00.000Z')
  // Spring forward: 19:59 CEST is 17:59 UTC (not yet), 20:00 CEST is 18:00 UTC (missing).
  const spring = { count: 0, day: '2026-03-29', reminderTime: '20:00', createdAt: '2026-03-29T01:30:00.000Z' }
  expect(registrationStatus({ ...spring, now: at('2026-03-29T17:59:00Z') })).toBe('notYet')
  expect(registrationStatus({ ...spring, now: at('2026-03-29T18:00:00Z') })).toBe('missing')
  // Fall back: the day has 25 hours; 22:59 UTC is 23:59 CET, still the 25th (not yet due by its end).
  const fall = { count: 0, day: '2026-10-25', reminderTime: null, createdAt: '2026-10-24T22:30:00.000Z' }
  expect(registrationStatus({ ...fall, now: at('2026-10-25T22:59:00Z') })).toBe('notYet')
  expect(registrationStatus({ ...fall, now: at('2026-10-25T23:00:00Z') })).toBe('missing')
  // 22:30 UTC on 24 October is 00:30 CEST on the 25th: the person is there on the 25th, not the 24th.
  expect(registrationStatus({ ...fall, day: '2026-10-24', now: at('2026-10-25T23:00:00Z') })).toBe('notApplicable')
})

test('the counts name every status; the total leaves out the persons the day does not apply to', () => {
  expect(countStatuses(['registered', 'registered', 'notYet', 'missing', 'notApplicable'])).toEqual({
    registered: 2,
    notYet: 1,
    missing: 1,
    notApplicable: 1,
    total: 4,
  })
})
