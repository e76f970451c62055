import { utcOffsetMinutes } from '@bosted/domain/days'

/** Calendar days are Danish days, as the app shows them (@bosted/domain/days). */
export { addDays, dayOf as dayInCopenhagen, isDay, TIME_ZONE, weekday } from '@bosted/domain/days'

const noonOffsets = new Map<string, number>()

/**
 * The ISO instant of a Copenhagen wall-clock time on a day (minutes after midnight). Uses the day's
 * offset at noon, which is right for every time after the 02:00–03:00 DST switch.
 */
export function copenhagenTime(day: string, minutes: number): string {
  let offset = noonOffsets.get(day)
  if (offset === undefined) {
    const [year, month, date] = day.split('-').map(Number) as [number, number, number]
    offset = utcOffsetMinutes(Date.UTC(year, month - 1, date, 12))
    noonOffsets.set(day, offset)
  }
  return new Date(Date.parse(`${day}T00:00:00Z`) + (minutes - offset) * 60_000).toISOString()
}
