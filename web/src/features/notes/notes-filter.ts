import * as z from 'zod/mini'
import { addDays, isDay } from '../../lib/days.ts'
import { MAX_PERSON_FILTER } from './api/notes-query.ts'

export const PERIODS = [7, 30, 90] as const
export type Period = (typeof PERIODS)[number]
export const DEFAULT_PERIOD: Period = 30

/** A diary list's filters, all kept in the URL: persons, a period (last N days or from–to) and a text. */
export type NotesFilter = {
  personIds: string[]
  period: Period | 'range'
  from: string
  to: string
  query: string
}

const DaySchema = z.string().check(z.refine(isDay))

/**
 * The filter form as it is applied ("Vis"): at most MAX_PERSON_FILTER persons, one of the periods or a
 * range of two days, and the search text trimmed. A UI filter, not stored data: its schema lives here.
 */
export const NotesFilterSchema = z.object({
  personIds: z.array(z.string().check(z.minLength(1))).check(z.maxLength(MAX_PERSON_FILTER)),
  period: z.literal([...PERIODS, 'range']),
  from: DaySchema,
  to: DaySchema,
  query: z.string().check(z.trim()),
}) satisfies z.ZodMiniType<NotesFilter>

/**
 * Reads the filters from the URL: `persons=a,b`, `period=7|30|90` or `from=…&to=…`, `q=…`; `day=…`
 * (the daily overview's link) is one day. Anything unreadable falls back to the last 30 days.
 */
export function parseNotesFilter(params: URLSearchParams, today: string): NotesFilter {
  const personIds = (params.get('persons') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')
  const query = (params.get('q') ?? '').trim()
  const day = params.get('day')
  if (isDay(day)) return { personIds, period: 'range', from: day, to: day, query }
  const from = params.get('from')
  const to = params.get('to')
  if (isDay(from) && isDay(to)) {
    const [first, last] = from <= to ? [from, to] : [to, from]
    return { personIds, period: 'range', from: first, to: last, query }
  }
  const asked = Number(params.get('period'))
  const period = PERIODS.find((candidate) => candidate === asked) ?? DEFAULT_PERIOD
  return { personIds, period, from: addDays(today, -(period - 1)), to: today, query }
}

/** The URL form of the filters (the inverse of parseNotesFilter; defaults are left out). */
export function notesFilterParams(filter: NotesFilter): URLSearchParams {
  const params = new URLSearchParams()
  if (filter.personIds.length > 0) params.set('persons', filter.personIds.join(','))
  if (filter.period === 'range') {
    if (filter.from === filter.to) params.set('day', filter.from)
    else {
      params.set('from', filter.from)
      params.set('to', filter.to)
    }
  } else if (filter.period !== DEFAULT_PERIOD) params.set('period', String(filter.period))
  if (filter.query !== '') params.set('q', filter.query)
  return params
}

/**
 * Whether an entry's current text contains the search text (case-insensitive, Danish). A deleted entry
 * is found by its text too, and shown as its marker: a deletion never makes an entry vanish from view.
 */
export function matchesText(note: { text: string }, query: string): boolean {
  if (query === '') return true
  return note.text.toLocaleLowerCase('da-DK').includes(query.toLocaleLowerCase('da-DK'))
}

/** Entries grouped by their (Copenhagen) day, keeping the list's order: newest day first. */
export function groupByDay<T extends { day: string }>(notes: readonly T[]): { day: string; notes: T[] }[] {
  const groups: { day: string; notes: T[] }[] = []
  for (const note of notes) {
    const last = groups.at(-1)
    if (last?.day === note.day) last.notes.push(note)
    else groups.push({ day: note.day, notes: [note] })
  }
  return groups
}
