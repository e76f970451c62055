import { addDays, dayOf, instantAt, startOfDay } from '../../lib/days.ts'
import type { StoredRegistration } from './api/registration-document.ts'

/**
 * A person's day, in the one vocabulary the daily overview's summary, its "Mangler" filter and its
 * badges share:
 * - `registered`: at least one registration that day;
 * - `notYet`: none yet, and the reminder time (or the day's end) has not passed — today before the
 *   reminder, or a day still to come;
 * - `missing`: none, and the reminder time has passed;
 * - `notApplicable`: the person did not exist that day (created after it), so nothing was due.
 */
export type RegistrationStatus = 'registered' | 'notYet' | 'missing' | 'notApplicable'

export const REGISTRATION_STATUSES: readonly RegistrationStatus[] = ['registered', 'missing', 'notYet', 'notApplicable']

/** The reminder time that applies: the person's, else the location's, else none (end of day). */
export function reminderTimeFor(personTime: string | null | undefined, locationTime: string | null | undefined) {
  return personTime ?? locationTime ?? null
}

/** When a day's registration is due: the reminder time on that day, or the day's end. */
export function dueAt(day: string, reminderTime: string | null): Date {
  return reminderTime === null ? startOfDay(addDays(day, 1)) : instantAt(day, reminderTime)
}

/** Whether a Copenhagen day has not begun yet at `now` (a day to come: nothing can be registered on it). */
export function isFutureDay(day: string, now: Date): boolean {
  return day > dayOf(now)
}

/**
 * A person's status on a day, from the number of their registrations that day, the reminder time
 * that applies, the person's creation time and now. A registration always counts (even one written
 * for a day before the person was created); without one, a person created after the day is not
 * applicable, else missing once the reminder time has passed, else not yet due.
 */
export function registrationStatus(input: {
  count: number
  day: string
  reminderTime: string | null
  now: Date
  /** The person's createdAt (ISO instant); a person created any time during the day is there that day. */
  createdAt?: string | null | undefined
}): RegistrationStatus {
  if (input.count > 0) return 'registered'
  if (input.createdAt && dayOf(input.createdAt) > input.day) return 'notApplicable'
  return input.now.getTime() >= dueAt(input.day, input.reminderTime).getTime() ? 'missing' : 'notYet'
}

export type StatusCounts = Record<RegistrationStatus, number> & {
  /** Persons the day applies to (everyone but the not applicable). */
  total: number
}

/** How many persons have each status; `total` leaves out those the day does not apply to. */
export function countStatuses(statuses: readonly RegistrationStatus[]): StatusCounts {
  const counts: StatusCounts = { registered: 0, notYet: 0, missing: 0, notApplicable: 0, total: 0 }
  for (const status of statuses) {
    counts[status] += 1
    if (status !== 'notApplicable') counts.total += 1
  }
  return counts
}

/** A person's line on a day's overview: their registrations, the reminder that applies and their status. */
export type DayRow<P> = {
  person: P
  registrations: StoredRegistration[]
  reminderTime: string | null
  status: RegistrationStatus
  notes: number
}

type DayPerson = {
  id: string
  createdAt?: string | null | undefined
  settings: { notifications?: { reminderTime?: string | null | undefined } | null | undefined }
}

/**
 * The overview of a day: each person's row (in the order given) and the counts. One vocabulary for
 * the summary, the filter and the badges; a person created after the day is counted as such and not
 * listed (nothing was due from them).
 */
export function dayOverview<P extends DayPerson>(input: {
  persons: readonly P[]
  registrations: readonly StoredRegistration[]
  noteCounts: ReadonlyMap<string, number>
  locationReminderTime: string | null | undefined
  day: string
  now: Date
}): { rows: DayRow<P>[]; counts: StatusCounts } {
  const byPerson = new Map<string, StoredRegistration[]>()
  for (const registration of input.registrations) {
    byPerson.set(registration.personId, [...(byPerson.get(registration.personId) ?? []), registration])
  }
  const all = input.persons.map((person) => {
    const own = byPerson.get(person.id) ?? []
    const reminderTime = reminderTimeFor(person.settings.notifications?.reminderTime, input.locationReminderTime)
    const status = registrationStatus({
      count: own.length,
      day: input.day,
      reminderTime,
      now: input.now,
      createdAt: person.createdAt,
    })
    return { person, registrations: own, reminderTime, status, notes: input.noteCounts.get(person.id) ?? 0 }
  })
  return {
    rows: all.filter((row) => row.status !== 'notApplicable'),
    counts: countStatuses(all.map((row) => row.status)),
  }
}
