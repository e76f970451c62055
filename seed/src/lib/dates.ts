/** Calendar days are Danish days: 'YYYY-MM-DD' in Europe/Copenhagen, as the app shows them. */
export const TIME_ZONE = 'Europe/Copenhagen'

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})
const partsFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

export function dayInCopenhagen(instant: Date): string {
  return dayFormat.format(instant)
}

/** True for a real calendar day written 'YYYY-MM-DD' (so not '2026-02-30'). */
export function isDay(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && addDays(value, 0) === value
}

export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10)
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(day: string): number {
  return new Date(`${day}T12:00:00Z`).getUTCDay()
}

function offsetMinutes(utcMs: number): number {
  const parts = Object.fromEntries(partsFormat.formatToParts(new Date(utcMs)).map((part) => [part.type, part.value]))
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  )
  return Math.round((local - utcMs) / 60_000)
}

const noonOffsets = new Map<string, number>()

/**
 * The ISO instant of a Copenhagen wall-clock time on a day (minutes after midnight). Uses the day's
 * offset at noon, which is right for every time after the 02:00–03:00 DST switch.
 */
export function copenhagenTime(day: string, minutes: number): string {
  let offset = noonOffsets.get(day)
  if (offset === undefined) {
    const [year, month, date] = day.split('-').map(Number) as [number, number, number]
    offset = offsetMinutes(Date.UTC(year, month - 1, date, 12))
    noonOffsets.set(day, offset)
  }
  return new Date(Date.parse(`${day}T00:00:00Z`) + (minutes - offset) * 60_000).toISOString()
}
