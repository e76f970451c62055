/**
 * What the api reads for Statistik (ADR 0027) and how it builds the compact answer: the request's
 * schema, the fields it projects, and summarizeStatistics (pure, unit-tested with the figures).
 * Not imported by the web (its code stays out of the statistics route's chunk).
 */
import * as z from 'zod/mini'
import { NoteSchema, RegistrationSchema } from './answer.ts'
import { isDay } from './days.ts'
import { daysBetween, type Period, previousPeriod, type Statistics } from './statistics.ts'

/** The longest period the api computes (ten years; the period before it is read as well). */
export const STATISTICS_MAX_DAYS = 3660

/** GET /api/statistics?locationId=…&from=…&to=… */
export const StatisticsQuerySchema = z
  .object({
    locationId: z.string().check(z.minLength(1), z.maxLength(1500)),
    from: z.string().check(z.refine(isDay, 'not a day')),
    to: z.string().check(z.refine(isDay, 'not a day')),
  })
  .check(
    z.refine(({ from, to }) => from <= to, { message: 'to must not be before from', path: ['to'] }),
    z.refine(({ from, to }) => daysBetween(from, to) < STATISTICS_MAX_DAYS, {
      message: `at most ${STATISTICS_MAX_DAYS} days`,
      path: ['to'],
    }),
  )
export type StatisticsQuery = z.infer<typeof StatisticsQuerySchema>

/**
 * The fields of a registration the api reads (projection): all but the free-text comment, so a
 * record that does not fit its schema is still told apart and counted as before.
 */
export const StatRegistrationDocSchema = z.omit(RegistrationSchema, { comment: true })
export const STAT_REGISTRATION_FIELDS = Object.keys(StatRegistrationDocSchema.shape)
/** …and of a diary entry: all but its text and earlier texts (the deletion marker is read, not sent). */
export const StatNoteDocSchema = z.omit(NoteSchema, { text: true, revisions: true })
export const STAT_NOTE_FIELDS = Object.keys(StatNoteDocSchema.shape)

type Doc = Record<string, unknown>

/** An index table: the index of a value, added the first time it is seen. */
function indexer<T>(key: (value: T) => string) {
  const indexes = new Map<string, number>()
  const values: T[] = []
  return {
    values,
    of(value: T): number {
      const k = key(value)
      let index = indexes.get(k)
      if (index === undefined) {
        index = values.length
        indexes.set(k, index)
        values.push(value)
      }
      return index
    },
  }
}

/**
 * The compact answer from the documents as read (pure; the api calls it): `registrations` from the
 * previous period's first day to `period.to`, `notes` of the period, `previousNotes` counted. A
 * document that does not fit its schema is left out and counted.
 */
export function summarizeStatistics(input: {
  period: Period
  registrations: readonly Doc[]
  notes: readonly Doc[]
  previousNotes: number
}): Statistics {
  const base = previousPeriod(input.period).from
  const persons = indexer<string>((id) => id)
  const answers = indexer<Statistics['answers'][number]>((a) => JSON.stringify([a.entity, a.answerId, a.text]))
  const statistics: Statistics = {
    from: input.period.from,
    to: input.period.to,
    persons: persons.values,
    answers: answers.values,
    registrations: [],
    notes: [],
    previousNotes: input.previousNotes,
    skipped: { registrations: 0, notes: 0 },
  }
  for (const doc of input.registrations) {
    const parsed = StatRegistrationDocSchema.safeParse(doc)
    if (!parsed.success) {
      statistics.skipped.registrations += 1
      continue
    }
    const r = parsed.data
    statistics.registrations.push([
      persons.of(r.personId),
      daysBetween(base, r.day),
      answers.of({ answerId: r.answerId, text: r.text, entity: r.entity }),
      r.value,
    ])
  }
  for (const doc of input.notes) {
    const parsed = StatNoteDocSchema.safeParse(doc)
    if (!parsed.success) {
      statistics.skipped.notes += 1
      continue
    }
    statistics.notes.push([persons.of(parsed.data.personId), daysBetween(input.period.from, parsed.data.day)])
  }
  return statistics
}
