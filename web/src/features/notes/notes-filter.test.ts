import { expect, test } from 'vitest'
import { today } from '../../lib/days.ts'
import { MAX_PERSON_FILTER } from './api/notes-query.ts'
import { groupByDay, matchesText, NotesFilterSchema, notesFilterParams, parseNotesFilter } from './notes-filter.ts'

const TODAY = '2026-11-24'
const parse = (query: string) => parseNotesFilter(new URLSearchParams(query), TODAY)

test('with no filters the list shows the last 30 days of every person', () => {
  expect(parse('')).toEqual({ personIds: [], period: 30, from: '2026-10-26', to: TODAY, query: '' })
})

test('a period of 7 or 90 days ends today; any other period is 30 days', () => {
  expect(parse('period=7')).toMatchObject({ period: 7, from: '2026-11-18', to: TODAY })
  expect(parse('period=90')).toMatchObject({ period: 90, from: '2026-08-27', to: TODAY })
  expect(parse('period=14')).toMatchObject({ period: 30, from: '2026-10-26' })
})

test('a from–to range is read in either order; a broken one falls back to 30 days', () => {
  expect(parse('from=2026-03-01&to=2026-03-31')).toMatchObject({
    period: 'range',
    from: '2026-03-01',
    to: '2026-03-31',
  })
  expect(parse('from=2026-03-31&to=2026-03-01')).toMatchObject({ from: '2026-03-01', to: '2026-03-31' })
  expect(parse('from=2026-02-30&to=2026-03-01')).toMatchObject({ period: 30 })
})

test("the daily overview's ?day= is that one day", () => {
  expect(parse('day=2026-10-25')).toMatchObject({ period: 'range', from: '2026-10-25', to: '2026-10-25' })
})

test('persons and the search text are read from the URL and written back without defaults', () => {
  const filter = parse('persons=a,b,,c&q=%20s%C3%B8vn%20&period=7')
  expect(filter).toMatchObject({ personIds: ['a', 'b', 'c'], query: 'søvn' })
  expect(notesFilterParams(filter).toString()).toBe('persons=a%2Cb%2Cc&period=7&q=s%C3%B8vn')
  expect(notesFilterParams(parse('')).toString()).toBe('')
  expect(notesFilterParams(parse('day=2026-10-25')).toString()).toBe('day=2026-10-25')
  expect(notesFilterParams(parse('from=2026-03-01&to=2026-03-31')).toString()).toBe('from=2026-03-01&to=2026-03-31')
})

test('entries are grouped by their day in the order they came, newest day first', () => {
  const notes = [
    { id: '1', day: '2026-10-25' },
    { id: '2', day: '2026-10-25' },
    { id: '3', day: '2026-10-24' },
  ]
  expect(groupByDay(notes)).toEqual([
    { day: '2026-10-25', notes: [notes[0], notes[1]] },
    { day: '2026-10-24', notes: [notes[2]] },
  ])
})

test("a new entry's day is the Copenhagen day, also across midnight UTC and the change to winter time", () => {
  // 22:30 UTC on 24 October 2026 is 00:30 in Copenhagen (summer time, +2): already the 25th.
  expect(today(new Date('2026-10-24T22:30:00Z'))).toBe('2026-10-25')
  // 23:30 UTC on 25 October 2026 is 00:30 on the 26th (winter time, +1).
  expect(today(new Date('2026-10-25T23:30:00Z'))).toBe('2026-10-26')
  expect(today(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01')
})

test('the text search ignores case and reads Danish letters; a deleted entry is still found (shown as its marker)', () => {
  expect(matchesText({ text: 'Sov godt. Ærlig og glad.' }, 'ærlig')).toBe(true)
  expect(matchesText({ text: 'Sov godt.' }, 'SOV')).toBe(true)
  expect(matchesText({ text: 'Sov godt.' }, 'uro')).toBe(false)
  expect(matchesText({ text: 'Sov godt.' }, '')).toBe(true)
})

test('the filter form is applied as its schema reads it: the search trimmed, a period or a range of two days', () => {
  const applied = { personIds: ['p1'], period: 'range', from: '2026-11-01', to: '2026-11-20', query: '  uro ' }
  expect(NotesFilterSchema.parse(applied)).toEqual({ ...applied, query: 'uro' })
  expect(NotesFilterSchema.safeParse({ ...applied, period: 14 }).success).toBe(false)
  expect(NotesFilterSchema.safeParse({ ...applied, from: '1. november' }).success).toBe(false)
  const tooMany = Array.from({ length: MAX_PERSON_FILTER + 1 }, (_, index) => `p${index}`)
  expect(NotesFilterSchema.safeParse({ ...applied, personIds: tooMany }).success).toBe(false)
})
