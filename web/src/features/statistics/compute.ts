import type { Period, StatNote, StatRegistration } from '@bosted/domain/statistics'
import { addDays, dayOf } from '../../lib/days.ts'

export { previousPeriod } from '@bosted/domain/statistics'
export type { Period, StatNote, StatRegistration }
export type StatPerson = { id: string; name: string; createdAt: string; disabled: boolean }

/** The last period's days: every figure of a render walks the same period (issue 34: Statistik's CPU). */
let lastPeriod: { from: string; to: string; days: readonly string[] } | null = null

/** Every day of a period, both ends included (a new array each call; the days are computed once). */
export function periodDays({ from, to }: Period): string[] {
  if (lastPeriod === null || lastPeriod.from !== from || lastPeriod.to !== to) {
    const days: string[] = []
    for (let day = from; day <= to; day = addDays(day, 1)) days.push(day)
    lastPeriod = { from, to, days }
  }
  return [...lastPeriod.days]
}

/** The Copenhagen day of each person's start, by its instant: formatting it is the costly part. */
const firstDays = new Map<string, string>()
const firstDayOf = (createdAt: string): string => {
  let day = firstDays.get(createdAt)
  if (day === undefined) {
    day = dayOf(createdAt)
    // Bounded: a location's persons, not its records.
    if (firstDays.size >= 10_000) firstDays.clear()
    firstDays.set(createdAt, day)
  }
  return day
}

/** Whether a person counts on a day: active, and already there (a person added mid-period counts from then). */
const isThere = (person: StatPerson, day: string) => !person.disabled && firstDayOf(person.createdAt) <= day

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length

export type KeyFigures = {
  persons: number
  registrations: number
  /** Share (0–1) of person-days with at least one registration; null without any person-day. */
  coverage: number | null
  averageValue: number | null
  /** Diary entries; null where the number is not known (a count of the whole location for a selection). */
  notes: number | null
}

type Input = { persons: readonly StatPerson[]; registrations: readonly StatRegistration[]; notes: number | null }

/**
 * The registrations a period's figures count: those of the given active persons inside the period.
 * Every figure and chart of the period (the total, the distribution's "x af y", coverage, values)
 * uses this one set, so they add up.
 */
export function countedRegistrations<R extends StatRegistration>(
  period: Period,
  persons: readonly StatPerson[],
  registrations: readonly R[],
): R[] {
  const ids = new Set(persons.filter((person) => !person.disabled).map((person) => person.id))
  return registrations.filter((r) => ids.has(r.personId) && r.day >= period.from && r.day <= period.to)
}

/** The key figures of a period for the given persons (registrations of others are left out). */
export function keyFigures(period: Period, { persons, registrations, notes }: Input): KeyFigures {
  const inside = countedRegistrations(period, persons, registrations)
  const registered = new Set(inside.map((r) => `${r.personId}/${r.day}`))
  let personDays = 0
  let covered = 0
  for (const day of periodDays(period))
    for (const person of persons)
      if (isThere(person, day)) {
        personDays += 1
        if (registered.has(`${person.id}/${day}`)) covered += 1
      }
  return {
    persons: persons.filter((person) => isThere(person, period.to)).length,
    registrations: inside.length,
    coverage: personDays === 0 ? null : covered / personDays,
    averageValue: mean(inside.map((r) => r.value)),
    notes,
  }
}

/** The share of the persons there that day who have a registration, per day of the period. */
export function coverageByDay(
  period: Period,
  persons: readonly StatPerson[],
  registrations: readonly StatRegistration[],
) {
  const registered = new Set(registrations.map((r) => `${r.personId}/${r.day}`))
  return periodDays(period).map((day) => {
    const there = persons.filter((person) => isThere(person, day))
    const done = there.filter((person) => registered.has(`${person.id}/${day}`)).length
    return { day, registered: done, persons: there.length, share: there.length === 0 ? null : done / there.length }
  })
}

/**
 * The coverage summary's figures: the average share per day and the day of lowest coverage, both
 * over the days that are over (before `today`) — today is not over and a day to come has not begun,
 * so neither can be the worst day, nor pull the average below the lowest. A period of today alone
 * averages today and names no lowest day.
 */
export function coverageSummary<D extends { day: string; share: number | null }>(
  days: readonly D[],
  today: string,
): { average: number | null; lowest: D | null } {
  const withShare = days.filter((d) => d.share !== null)
  const over = withShare.filter((d) => d.day < today)
  const counted = over.length > 0 ? over : withShare.filter((d) => d.day <= today)
  const average = counted.length === 0 ? null : counted.reduce((sum, d) => sum + (d.share ?? 0), 0) / counted.length
  const lowest = over.reduce<D | null>((low, d) => (low === null || (d.share ?? 1) < (low.share ?? 1) ? d : low), null)
  return { average, lowest }
}

export type AnswerCount = { key: string; text: string; entity: 'person' | 'location'; count: number }

/** How often each answer was given; a person's own option and the location's are told apart. */
export function answerDistribution(registrations: readonly StatRegistration[]): AnswerCount[] {
  const counts = new Map<string, AnswerCount>()
  for (const r of registrations) {
    const key = `${r.entity}:${r.answerId}`
    const current = counts.get(key) ?? { key, text: r.text, entity: r.entity, count: 0 }
    current.count += 1
    counts.set(key, current)
  }
  return [...counts.values()].sort(
    (a, b) => b.count - a.count || a.entity.localeCompare(b.entity) || a.text.localeCompare(b.text, 'da'),
  )
}

/** One person's daily average answer value over the period (null on days without a registration). */
export function dailyValues(period: Period, personId: string, registrations: readonly StatRegistration[]) {
  const byDay = new Map<string, number[]>()
  for (const r of registrations) if (r.personId === personId) byDay.set(r.day, [...(byDay.get(r.day) ?? []), r.value])
  return periodDays(period).map((day) => ({ day, value: mean(byDay.get(day) ?? []) }))
}

export type Trend = 'up' | 'down' | 'flat' | null

/** ↑ ↓ → against the previous period's average (within 0.1 is flat); null without both averages. */
export function trend(current: number | null, previous: number | null): Trend {
  if (current === null || previous === null) return null
  if (current - previous > 0.1) return 'up'
  if (previous - current > 0.1) return 'down'
  return 'flat'
}

export type PersonRow = {
  id: string
  name: string
  registrations: number
  missingDays: number
  averageValue: number | null
  trend: Trend
  lastNote: string | null
}

/** The per-person table: registrations, days without one, average, trend, and the last diary entry's day. */
export function personRows(
  period: Period,
  persons: readonly StatPerson[],
  registrations: readonly StatRegistration[],
  previousRegistrations: readonly StatRegistration[],
  notes: readonly StatNote[],
): PersonRow[] {
  const days = periodDays(period)
  return persons.map((person) => {
    const own = registrations.filter((r) => r.personId === person.id)
    const registeredDays = new Set(own.map((r) => r.day))
    const missingDays = days.filter((day) => isThere(person, day) && !registeredDays.has(day)).length
    const averageValue = mean(own.map((r) => r.value))
    const previous = mean(previousRegistrations.filter((r) => r.personId === person.id).map((r) => r.value))
    const last = notes
      .filter((note) => note.personId === person.id)
      .reduce<string | null>((latest, note) => (latest === null || note.day > latest ? note.day : latest), null)
    return {
      id: person.id,
      name: person.name,
      registrations: own.length,
      missingDays,
      averageValue,
      trend: trend(averageValue, previous),
      lastNote: last,
    }
  })
}
