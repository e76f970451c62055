/**
 * Statistik's wire (ADR 0027): what the api reads for a location's figures and how it sends it.
 * The api reads the registrations and diary entries with field projection, keeps only what the
 * figures use, and sends it in a compact shape (indexes into tables instead of repeated strings);
 * the web expands it into the records its figure functions take. Both ends use this module.
 */
import { z } from 'zod'
import { ANSWER_ENTITIES, NoteSchema, RegistrationSchema } from './answer.ts'
import { addDays, isDay } from './days.ts'

/** A period of days, both ends included. */
export type Period = { from: string; to: string }

/** The longest period the api computes (ten years; the period before it is read as well). */
export const STATISTICS_MAX_DAYS = 3660

/** The whole days from `from` to `to` (0 for the same day). */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000)

/** The period of the same length just before `period`. */
export function previousPeriod({ from, to }: Period): Period {
  const length = daysBetween(from, to) + 1
  return { from: addDays(from, -length), to: addDays(from, -1) }
}

/** GET /api/statistics?locationId=…&from=…&to=… */
export const StatisticsQuerySchema = z
  .object({
    locationId: z.string().min(1).max(1500),
    from: z.string().refine(isDay, 'not a day'),
    to: z.string().refine(isDay, 'not a day'),
  })
  .refine(({ from, to }) => from <= to, { message: 'to must not be before from', path: ['to'] })
  .refine(({ from, to }) => daysBetween(from, to) < STATISTICS_MAX_DAYS, {
    message: `at most ${STATISTICS_MAX_DAYS} days`,
    path: ['to'],
  })
export type StatisticsQuery = z.infer<typeof StatisticsQuerySchema>

/**
 * The fields of a registration the api reads (projection): all but the free-text comment, so a
 * record that does not fit its schema is still told apart and counted as before.
 */
export const StatRegistrationDocSchema = RegistrationSchema.omit({ comment: true })
export const STAT_REGISTRATION_FIELDS = Object.keys(StatRegistrationDocSchema.shape)
/** …and of a diary entry: all but its text and earlier texts (the deletion marker is read, not sent). */
export const StatNoteDocSchema = NoteSchema.omit({ text: true, revisions: true })
export const STAT_NOTE_FIELDS = Object.keys(StatNoteDocSchema.shape)

const Index = z.number().int().min(0)

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
  previousNotes: z.number().int().min(0),
  /** Records left out because they do not fit their schema (reported, as every list does). */
  skipped: z.object({ registrations: z.number().int().min(0), notes: z.number().int().min(0) }),
})
export type Statistics = z.infer<typeof StatisticsSchema>

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

/** The records the figures take, from the compact answer (the web calls it). */
export function expandStatistics(statistics: Statistics): { registrations: StatRegistration[]; notes: StatNote[] } {
  const base = previousPeriod({ from: statistics.from, to: statistics.to }).from
  const person = (index: number) => statistics.persons[index] ?? ''
  return {
    registrations: statistics.registrations.map(([p, day, a, value]) => {
      const answer = statistics.answers[a] ?? { answerId: '', text: '', entity: 'location' as const }
      return { personId: person(p), day: addDays(base, day), ...answer, value }
    }),
    notes: statistics.notes.map(([p, day]) => ({ personId: person(p), day: addDays(statistics.from, day) })),
  }
}
