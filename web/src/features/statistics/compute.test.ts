import { expect, test } from 'vitest'
import {
  answerDistribution,
  countedRegistrations,
  coverageByDay,
  coverageSummary,
  dailyValues,
  keyFigures,
  periodDays,
  personRows,
  previousPeriod,
  type StatPerson,
  type StatRegistration,
  trend,
} from './compute.ts'

// Three days across the change to winter time (25 October 2026 has 25 hours in Copenhagen).
const PERIOD = { from: '2026-10-24', to: '2026-10-26' }
const persons: StatPerson[] = [
  { id: 'a', name: 'Anna', createdAt: '2026-01-01T10:00:00.000Z', disabled: false },
  // Added mid-period: 22:30 UTC on the 24th is already the 25th in Copenhagen.
  { id: 'b', name: 'Bo', createdAt: '2026-10-24T22:30:00.000Z', disabled: false },
  { id: 'x', name: 'Moved out', createdAt: '2026-01-01T10:00:00.000Z', disabled: true },
]
const reg = (
  personId: string,
  day: string,
  value: number,
  answerId = 'good',
  entity: 'person' | 'location' = 'location',
) =>
  ({ personId, day, value, answerId, text: answerId === 'good' ? 'Godt' : 'Skidt', entity }) satisfies StatRegistration
const registrations = [
  reg('a', '2026-10-24', 3),
  reg('a', '2026-10-25', 1, 'bad'),
  reg('a', '2026-10-25', 3),
  reg('b', '2026-10-26', 4, 'good', 'person'),
  reg('x', '2026-10-24', 2),
]
const previous = [reg('a', '2026-10-22', 1, 'bad'), reg('b', '2026-10-23', 4, 'good', 'person')]

test('a period has every day once, also across the change to winter time; the previous one is as long', () => {
  expect(periodDays(PERIOD)).toEqual(['2026-10-24', '2026-10-25', '2026-10-26'])
  expect(previousPeriod(PERIOD)).toEqual({ from: '2026-10-21', to: '2026-10-23' })
  expect(periodDays({ from: '2026-12-31', to: '2027-01-01' })).toEqual(['2026-12-31', '2027-01-01'])
})

test('key figures: persons there, registrations, coverage of person-days, average value and diary entries', () => {
  const active = persons.filter((person) => !person.disabled)
  expect(keyFigures(PERIOD, { persons: active, registrations, notes: 7 })).toEqual({
    persons: 2,
    registrations: 4,
    // Anna 3 days (2 registered), Bo 2 days from the 25th (1 registered): 3 of 5.
    coverage: 3 / 5,
    averageValue: (3 + 1 + 3 + 4) / 4,
    notes: 7,
  })
  expect(keyFigures({ from: '2026-01-01', to: '2026-01-02' }, { persons: [], registrations, notes: 0 })).toEqual({
    persons: 0,
    registrations: 0,
    coverage: null,
    averageValue: null,
    notes: 0,
  })
})

test('coverage per day counts only the persons there that day', () => {
  const active = persons.filter((person) => !person.disabled)
  expect(coverageByDay(PERIOD, active, registrations)).toEqual([
    { day: '2026-10-24', registered: 1, persons: 1, share: 1 },
    { day: '2026-10-25', registered: 1, persons: 2, share: 0.5 },
    { day: '2026-10-26', registered: 1, persons: 2, share: 0.5 },
  ])
})

test("the distribution tells a person's own option from the location's with the same text", () => {
  expect(answerDistribution(registrations.filter((r) => r.personId !== 'x'))).toEqual([
    { key: 'location:good', text: 'Godt', entity: 'location', count: 2 },
    { key: 'location:bad', text: 'Skidt', entity: 'location', count: 1 },
    { key: 'person:good', text: 'Godt', entity: 'person', count: 1 },
  ])
})

test("a person's value over time is the daily average, empty on days without a registration", () => {
  expect(dailyValues(PERIOD, 'a', registrations)).toEqual([
    { day: '2026-10-24', value: 3 },
    { day: '2026-10-25', value: 2 },
    { day: '2026-10-26', value: null },
  ])
})

test('the per-person table: registrations, missing days, average, trend and the last diary entry', () => {
  const notes = [
    { personId: 'a', day: '2026-10-24', createdAt: 'x' },
    { personId: 'a', day: '2026-10-26', createdAt: 'y' },
  ]
  expect(personRows(PERIOD, persons.slice(0, 2), registrations, previous, notes)).toEqual([
    {
      id: 'a',
      name: 'Anna',
      registrations: 3,
      missingDays: 1,
      averageValue: 7 / 3,
      trend: 'up',
      lastNote: '2026-10-26',
    },
    { id: 'b', name: 'Bo', registrations: 1, missingDays: 1, averageValue: 4, trend: 'flat', lastNote: null },
  ])
  expect([trend(2, 2.05), trend(1, 2), trend(null, 2), trend(2, null)]).toEqual(['flat', 'down', null, null])
})

test('the total of registrations and the distribution count the same set: a disabled person counts in neither', () => {
  const period = { from: '2026-11-01', to: '2026-11-03' }
  const persons = [
    { id: 'a', name: 'A', createdAt: '2026-01-01T00:00:00Z', disabled: false },
    { id: 'b', name: 'B', createdAt: '2026-01-01T00:00:00Z', disabled: true },
  ]
  const reg = (personId: string, day: string) => ({
    personId,
    day,
    answerId: 'x',
    text: 'God',
    value: 3,
    entity: 'location' as const,
  })
  const all = [reg('a', '2026-11-01'), reg('a', '2026-11-02'), reg('b', '2026-11-02'), reg('a', '2026-10-31')]
  const counted = countedRegistrations(period, persons, all)
  const figures = keyFigures(period, { persons, registrations: all, notes: null })
  const distribution = answerDistribution(counted)
  expect(figures.registrations).toBe(2)
  expect(distribution.reduce((sum, answer) => sum + answer.count, 0)).toBe(figures.registrations)
})

test('the lowest day and the average are of the days that are over: today and days to come never count', () => {
  const days = [
    { day: '2026-11-23', share: 0.8 },
    { day: '2026-11-24', share: 0.6 },
    { day: '2026-11-25', share: 0.1 },
    { day: '2026-11-26', share: 0 },
    { day: '2026-11-22', share: null },
  ]
  const summary = coverageSummary(days, '2026-11-25')
  expect(summary.lowest?.day).toBe('2026-11-24')
  expect(summary.average).toBeCloseTo(0.7)
  // A period of today alone: today's share so far, and no lowest day.
  expect(coverageSummary(days, '2026-11-23')).toEqual({ average: 0.8, lowest: null })
})
