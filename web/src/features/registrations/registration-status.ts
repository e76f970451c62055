import { addDays, instantAt, startOfDay } from '../../lib/days.ts'

export type RegistrationStatus = 'registered' | 'missing' | 'notDue'

/** The reminder time that applies: the person's, else the location's, else none (end of day). */
export function reminderTimeFor(personTime: string | null | undefined, locationTime: string | null | undefined) {
  return personTime ?? locationTime ?? null
}

/** When a day's registration is due: the reminder time on that day, or the day's end. */
export function dueAt(day: string, reminderTime: string | null): Date {
  return reminderTime === null ? startOfDay(addDays(day, 1)) : instantAt(day, reminderTime)
}

/**
 * A person's status on a day: registered once there is a registration; otherwise "missing" when
 * the reminder time (person's, else location's, else end of day) has passed, else not yet due.
 */
export function registrationStatus(input: {
  count: number
  day: string
  reminderTime: string | null
  now: Date
}): RegistrationStatus {
  if (input.count > 0) return 'registered'
  return input.now.getTime() >= dueAt(input.day, input.reminderTime).getTime() ? 'missing' : 'notDue'
}
