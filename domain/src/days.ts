/**
 * Calendar days as the product shows them: 'YYYY-MM-DD' in Europe/Copenhagen. Day arithmetic works
 * on the date alone (never by adding 24 hours), so it is right across the DST changes and year ends.
 * Shared by the web and the seed.
 */
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

/** The Copenhagen day an instant falls on. */
export function dayOf(instant: Date | string): string {
  return dayFormat.format(typeof instant === 'string' ? new Date(instant) : instant)
}

/** True for a real calendar day written 'YYYY-MM-DD' (so not '2026-02-30'). */
export function isDay(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && addDays(value, 0) === value
}

export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10)
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(day: string): number {
  return new Date(`${day}T12:00:00Z`).getUTCDay()
}

/** Copenhagen's offset from UTC, in minutes, at an instant (60 in winter, 120 in summer). */
export function utcOffsetMinutes(utcMs: number): number {
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

/**
 * The instant of a Copenhagen wall-clock time 'HH:MM' on a day. The offset is taken at that wall
 * time (first guess from the day's midnight, then corrected), so 03:00 on 2026-03-29 is 01:00 UTC.
 */
export function instantAt(day: string, time: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const [hours, minutes] = time.split(':').map(Number) as [number, number]
  const wall = Date.UTC(year, month - 1, date, hours, minutes)
  const first = wall - utcOffsetMinutes(wall) * 60_000
  return new Date(wall - utcOffsetMinutes(first) * 60_000)
}

/** The first instant of a Copenhagen day. */
export const startOfDay = (day: string): Date => instantAt(day, '00:00')
