import { expandStatistics, StatisticsSchema } from '@bosted/domain/statistics'
import { summarizeStatistics } from '@bosted/domain/statistics-read'
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

test("a period's days are its own whatever was asked before, and changing a returned list changes no other", () => {
  const first = periodDays(PERIOD)
  first.push('2026-10-27')
  expect(periodDays(PERIOD)).toEqual(['2026-10-24', '2026-10-25', '2026-10-26'])
  expect(periodDays({ from: '2026-10-25', to: '2026-10-26' })).toEqual(['2026-10-25', '2026-10-26'])
  expect(periodDays({ from: '2026-10-24', to: '2026-10-25' })).toEqual(['2026-10-24', '2026-10-25'])
  expect(periodDays(PERIOD)).toHaveLength(3)
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

// The same fixture as the api reads it (documents) and sends it (compact), expanded here: the figures
// must be the very numbers above, so nothing is lost or changed on the way.
const doc = (r: StatRegistration, id = 1) => ({
  ...r,
  locationId: 'l',
  createdAt: `${r.day}T08:00:00.000Z`,
  createdBy: `u${id}`,
  comment: 'never sent',
})
const noteDoc = (personId: string, day: string) => ({
  personId,
  locationId: 'l',
  day,
  createdAt: `${day}T08:00:00.000Z`,
  createdBy: 'u',
  source: 'keyboard',
  authorName: 'Signe',
})
const overTheWire = (registrationDocs: Record<string, unknown>[], notes = [noteDoc('a', '2026-10-24')]) =>
  expandStatistics(
    StatisticsSchema.parse(
      JSON.parse(
        JSON.stringify(
          summarizeStatistics({ period: PERIOD, registrations: registrationDocs, notes, previousNotes: 5 }),
        ),
      ),
    ),
  )
const figuresOf = (wire: ReturnType<typeof overTheWire>) => {
  const active = persons.filter((person) => !person.disabled)
  const current = countedRegistrations(PERIOD, active, wire.registrations)
  const before = countedRegistrations(previousPeriod(PERIOD), active, wire.registrations)
  return {
    figures: keyFigures(PERIOD, { persons: active, registrations: current, notes: wire.notes.length }),
    coverage: coverageByDay(PERIOD, active, current).map((d) => d.share),
    distribution: answerDistribution(current).map((a) => [a.key, a.count]),
    rows: personRows(PERIOD, active, current, before, wire.notes).map((r) => [r.id, r.registrations, r.averageValue]),
  }
}

test('over the wire (documents → compact → records): the exact figures across the DST day, Bo added mid-period', () => {
  const wire = overTheWire([...previous, ...registrations].map((r) => doc(r)))
  expect(wire.registrations).toEqual([...previous, ...registrations])
  expect(wire.notes).toEqual([{ personId: 'a', day: '2026-10-24' }])
  expect(figuresOf(wire)).toEqual({
    figures: { persons: 2, registrations: 4, coverage: 3 / 5, averageValue: 11 / 4, notes: 1 },
    coverage: [1, 0.5, 0.5],
    distribution: [
      ['location:good', 2],
      ['location:bad', 1],
      ['person:good', 1],
    ],
    rows: [
      ['a', 3, 7 / 3],
      ['b', 1, 4],
    ],
  })
})

test('a corrected registration counts as corrected; a deleted one not at all (the documents as they are now)', () => {
  const stored = [...previous, ...registrations].map((r) => doc(r))
  // Anna's "Skidt" on the 25th corrected to "Godt" (3): the document now holds the new answer.
  const corrected = stored.map((d) =>
    d.personId === 'a' && d.day === '2026-10-25' && d.answerId === 'bad'
      ? { ...d, answerId: 'good', text: 'Godt', value: 3, updatedAt: '2026-10-25T12:00:00.000Z', updatedBy: 'u2' }
      : d,
  )
  expect(figuresOf(overTheWire(corrected))).toMatchObject({
    figures: { registrations: 4, coverage: 3 / 5, averageValue: (3 + 3 + 3 + 4) / 4 },
    distribution: [
      ['location:good', 3],
      ['person:good', 1],
    ],
    rows: [
      ['a', 3, 3],
      ['b', 1, 4],
    ],
  })
  // Bo's only registration (the 26th) deleted: his days all miss, and the total drops by one.
  const deleted = stored.filter((d) => !(d.personId === 'b' && d.day === '2026-10-26'))
  expect(figuresOf(overTheWire(deleted))).toMatchObject({
    figures: { persons: 2, registrations: 3, coverage: 2 / 5, averageValue: 7 / 3 },
    coverage: [1, 0.5, 0],
    rows: [
      ['a', 3, 7 / 3],
      ['b', 0, null],
    ],
  })
})

test('a document that does not fit is left out and counted; comments and texts never go over the wire', () => {
  const summary = summarizeStatistics({
    period: PERIOD,
    registrations: [doc(registrations[0] as StatRegistration), { ...doc(reg('b', '2026-10-25', 2)), entity: null }],
    notes: [noteDoc('a', '2026-10-24'), { ...noteDoc('b', '2026-10-25'), source: undefined }],
    previousNotes: 0,
  })
  expect(summary.skipped).toEqual({ registrations: 1, notes: 1 })
  expect(summary.registrations).toEqual([[0, 3, 0, 3]])
  expect(JSON.stringify(summary)).not.toContain('never sent')
})
