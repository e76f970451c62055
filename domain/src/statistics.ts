/**
 * Statistik's wire (ADR 0027): the compact shape the api sends a location's figures' data in
 * (indexes into tables instead of repeated strings), and its expansion into the records the web's
 * figure functions take. What the api reads and how it builds this shape: statistics-read.ts.
 */
import * as z from 'zod/mini'
import { ANSWER_ENTITIES } from './answer.ts'
import { addDays } from './days.ts'

/** A period of days, both ends included. */
export type Period = { from: string; to: string }

/** The whole days from `from` to `to` (0 for the same day). */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000)

/** The period of the same length just before `period`. */
export function previousPeriod({ from, to }: Period): Period {
  const length = daysBetween(from, to) + 1
  return { from: addDays(from, -length), to: addDays(from, -1) }
}

const Index = z.int().check(z.minimum(0))

/** The answer: the compact figures' data of a location for a period and the period before it. */
export const StatisticsSchema = z.object({
  /** The period asked for; registrations reach back over the period before it (previousPeriod). */
  from: z.string(),
  to: z.string(),
  /** Person ids, indexed by the rows below. */
  persons: z.array(z.string()),
  /** The answers given, indexed by the rows below. */
  answers: z.array(z.object({ answerId: z.string(), text: z.string(), entity: z.enum(ANSWER_ENTITIES) })),
  /**
   * One row per registration of the period and the one before, in the query's order:
   * [person, day (days after the previous period's first day), answer, value].
   */
  registrations: z.array(z.tuple([Index, Index, Index, z.number()])),
  /** One row per diary entry of the period: [person, day (days after the period's first day)]. */
  notes: z.array(z.tuple([Index, Index])),
  /** How many diary entries the location has in the period before (all of them, counted). */
  previousNotes: Index,
  /** Records left out because they do not fit their schema (reported, as every list does). */
  skipped: z.object({ registrations: Index, notes: Index }),
})
export type Statistics = z.infer<typeof StatisticsSchema>

/** `GET /api/statistics`'s answer: the figures' data under `data`, as every api answer. */
export const StatisticsResponseSchema = z.object({ data: StatisticsSchema })

/** A registration as the figures count it. */
export type StatRegistration = {
  personId: string
  day: string
  answerId: string
  text: string
  value: number
  entity: 'person' | 'location'
}
/** A diary entry as the figures count it. */
export type StatNote = { personId: string; day: string }

/** The records the figures take, from the compact answer (the web calls it). */
export function expandStatistics(statistics: Statistics): { registrations: StatRegistration[]; notes: StatNote[] } {
  const base = previousPeriod({ from: statistics.from, to: statistics.to }).from
  const person = (index: number) => statistics.persons[index] ?? ''
  // Each offset's day once, not once per record (thousands of records share ~180 days).
  const daysFrom = (start: string) => {
    const days = new Map<number, string>()
    return (offset: number) => {
      let day = days.get(offset)
      if (day === undefined) {
        day = addDays(start, offset)
        days.set(offset, day)
      }
      return day
    }
  }
  const registrationDay = daysFrom(base)
  const noteDay = daysFrom(statistics.from)
  return {
    registrations: statistics.registrations.map(([p, day, a, value]) => {
      const answer = statistics.answers[a] ?? { answerId: '', text: '', entity: 'location' as const }
      return { personId: person(p), day: registrationDay(day), ...answer, value }
    }),
    notes: statistics.notes.map(([p, day]) => ({ personId: person(p), day: noteDay(day) })),
  }
}
