import { expect, test } from 'vitest'
import { dueAt, registrationStatus, reminderTimeFor } from './registration-status.ts'

const at = (iso: string) => new Date(iso)

test('a person with a registration that day is registered, whatever the time', () => {
  expect(
    registrationStatus({ count: 1, day: '2026-11-23', reminderTime: '08:00', now: at('2026-11-24T12:00:00Z') }),
  ).toBe('registered')
})

test('without a registration a person is missing once the reminder time has passed, not before', () => {
  // 20:00 in Copenhagen is 19:00 UTC in November.
  const day = '2026-11-23'
  expect(registrationStatus({ count: 0, day, reminderTime: '20:00', now: at('2026-11-23T18:59:00Z') })).toBe('notDue')
  expect(registrationStatus({ count: 0, day, reminderTime: '20:00', now: at('2026-11-23T19:00:00Z') })).toBe('missing')
})

test("the person's reminder time wins over the location's; without either the day's end applies", () => {
  expect(reminderTimeFor('19:00', '21:00')).toBe('19:00')
  expect(reminderTimeFor(null, '21:00')).toBe('21:00')
  expect(reminderTimeFor(undefined, null)).toBeNull()
  const day = '2026-11-23'
  expect(registrationStatus({ count: 0, day, reminderTime: null, now: at('2026-11-23T22:59:00Z') })).toBe('notDue')
  expect(registrationStatus({ count: 0, day, reminderTime: null, now: at('2026-11-23T23:00:00Z') })).toBe('missing')
})

test('a past day without a registration is missing; a future day is not yet due', () => {
  const now = at('2026-11-23T08:00:00Z')
  expect(registrationStatus({ count: 0, day: '2026-11-22', reminderTime: '20:00', now })).toBe('missing')
  expect(registrationStatus({ count: 0, day: '2026-11-24', reminderTime: null, now })).toBe('notDue')
})

test('the reminder on a DST day is due at its wall-clock time', () => {
  expect(dueAt('2026-03-29', '20:00').toISOString()).toBe('2026-03-29T18:00:00.000Z')
  expect(dueAt('2026-10-25', '20:00').toISOString()).toBe('2026-10-25T19:00:00.000Z')
  expect(dueAt('2026-03-29', null).toISOString()).toBe('2026-03-29T22:00:00.000Z')
  expect(dueAt('2026-10-25', null).toISOString()).toBe('2026-10-25T23:00:00.000Z')
  expect(dueAt('2026-12-31', null).toISOString()).toBe('2026-12-31T23:00:00.000Z')
})
