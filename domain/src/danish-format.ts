/**
 * Numbers and times the Danish way, read and written in one place (issue 32): `1.500`, `1.500,50`,
 * `2,5`, `kl. 09.43`. Every screen formats through here and every number field parses through
 * here, so "1.500" is never read as 1.5 and a time is never written "20:00" on one page and
 * "20.00" on the next.
 */
import { TIME_ZONE } from './days.ts'

const clockFormat = new Intl.DateTimeFormat('da-DK', {
  timeZone: TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})

/** ICU writes a narrow no-break space or a minus sign in places; screens and tests expect plain text. */
const plain = (text: string) => text.replace(/\u2212/g, '-').replace(/[\u00a0\u202f]/g, ' ')

/**
 * One formatter per number of decimals, made on first use: a new Intl.NumberFormat costs far more
 * than a format call (Statistik formats thousands of values; issue 34).
 */
const numberFormats = new Map<string, Intl.NumberFormat>()
function numberFormat(minimumFractionDigits: number, maximumFractionDigits: number): Intl.NumberFormat {
  const key = `${minimumFractionDigits}/${maximumFractionDigits}`
  let format = numberFormats.get(key)
  if (format === undefined) {
    format = new Intl.NumberFormat('da-DK', { minimumFractionDigits, maximumFractionDigits })
    numberFormats.set(key, format)
  }
  return format
}

/** `1.500`, `1.500,5`, `-2`: at most `maximumFractionDigits` decimals (default 2), none when whole. */
export function formatNumber(value: number, maximumFractionDigits = 2): string {
  return plain(numberFormat(0, maximumFractionDigits).format(value))
}

/** Exactly `digits` decimals: `3,0`, `1.500,50`. */
export function formatFixed(value: number, digits: number): string {
  return plain(numberFormat(digits, digits).format(value))
}

/** A whole count with thousands separators: `12.345`. */
export const formatCount = (value: number): string => plain(numberFormat(0, 0).format(value))

/** An amount of kroner: whole as `1.500`, with øre as `1.500,50` (always two decimals then). */
export function formatAmount(value: number): string {
  return Number.isInteger(value) ? formatCount(value) : formatFixed(value, 2)
}

/** The Copenhagen wall-clock time of an instant: `09.43`. */
export function formatClock(instant: string | Date): string {
  return plain(clockFormat.format(typeof instant === 'string' ? new Date(instant) : instant))
}

/** A stored time of day `HH:MM` (a reminder, an input's value) as Danes write it: `20.00`. */
export function formatTimeOfDay(time: string): string {
  const match = /^(\d{1,2})[:.](\d{2})$/.exec(time.trim())
  if (match === null) return time
  return `${(match[1] as string).padStart(2, '0')}.${match[2]}`
}

/** `kl. 09.43` for an instant or a stored `HH:MM`. */
export function atClock(time: string | Date): string {
  const text =
    typeof time === 'string' && /^\d{1,2}[:.]\d{2}$/.test(time.trim()) ? formatTimeOfDay(time) : formatClock(time)
  return `kl. ${text}`
}

export const NUMBER_MESSAGES = {
  invalid: 'Skriv et tal, fx 2,5 eller 1.500,50',
  tooManyDecimals: (digits: number) =>
    digits === 0 ? 'Skriv et helt tal' : `Skriv højst ${digits === 1 ? 'én decimal' : `${digits} decimaler`}`,
} as const

export type ParsedNumber = { ok: true; value: number } | { ok: false; message: string }

/**
 * Reads a number typed the Danish way: `,` is the decimal comma, `.` only groups thousands in
 * threes. Accepts `1500`, `1500,50`, `1.500`, `1.500,50`, `2,5`, `-2`, `−2` and spaces around it;
 * refuses anything ambiguous or foreign (`1.5`, `1,500.50`, `1.50`, `2.5`, `1,2,3`, `1e3`, empty)
 * with a Danish message.
 */
export function parseDanishNumber(text: string, options: { maximumFractionDigits?: number } = {}): ParsedNumber {
  const trimmed = plain(text).trim().replace(/ /g, '')
  const match = /^([+-]?)(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?$/.exec(trimmed)
  if (match === null) return { ok: false, message: NUMBER_MESSAGES.invalid }
  const [, sign, whole = '', fraction] = match
  const digits = options.maximumFractionDigits
  if (digits !== undefined && fraction !== undefined && fraction.length > digits) {
    return { ok: false, message: NUMBER_MESSAGES.tooManyDecimals(digits) }
  }
  const value = Number(`${sign}${whole.replace(/\./g, '')}${fraction === undefined ? '' : `.${fraction}`}`)
  if (!Number.isFinite(value)) return { ok: false, message: NUMBER_MESSAGES.invalid }
  return { ok: true, value: Object.is(value, -0) ? 0 : value }
}
