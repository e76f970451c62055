/** The web's day helpers: the shared calendar of @bosted/domain/days, plus weeks, wall times and Danish formats. */
import { formatClock } from '@bosted/domain/danish-format'
import { addDays, dayOf, weekday } from '@bosted/domain/days'

export { addDays, dayOf, isDay, TIME_ZONE, weekday } from '@bosted/domain/days'

export const today = (now: Date = new Date()): string => dayOf(now)

/** The Monday of the (Danish, ISO) week a day belongs to. */
export const weekStart = (day: string): string => addDays(day, -((weekday(day) + 6) % 7))

/** The seven days of the week starting `monday`. */
export const weekDays = (monday: string): string[] => Array.from({ length: 7 }, (_, index) => addDays(monday, index))

/** ISO 8601 week number (Danish 'uge'). */
export function isoWeek(day: string): number {
  const thursday = addDays(weekStart(day), 3)
  const jan1 = `${thursday.slice(0, 4)}-01-01`
  const diff = (Date.parse(`${thursday}T00:00:00Z`) - Date.parse(`${jan1}T00:00:00Z`)) / 86_400_000
  return Math.floor(diff / 7) + 1
}

export { instantAt, startOfDay } from '@bosted/domain/days'

const longDayFormat = new Intl.DateTimeFormat('da-DK', {
  timeZone: 'UTC',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
})
const shortDayFormat = new Intl.DateTimeFormat('da-DK', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
})

/** '14.05' for an ISO instant, in Copenhagen time (the one Danish format module's). */
export const formatTime = (instant: string): string => formatClock(instant)
/** 'mandag den 23. november 2026' style, for a day. */
export const formatDay = (day: string): string => longDayFormat.format(new Date(`${day}T12:00:00Z`))
export const formatShortDay = (day: string): string => shortDayFormat.format(new Date(`${day}T12:00:00Z`))
