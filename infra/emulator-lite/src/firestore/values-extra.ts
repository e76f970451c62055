import { getField } from './paths.ts'
import { type Fields, isNumber, toNumber } from './values.ts'

export { formatTimestamp, type Value } from './values.ts'

/** A numeric field for sum/avg: non-numeric and missing fields are skipped, as Firestore does. */
export function getNumber(
  fields: Fields,
  segments: string[],
): { number: number; isInteger: boolean; integer?: string } | undefined {
  const value = getField(fields, segments)
  if (value === undefined || !isNumber(value)) return undefined
  const isInteger = 'integerValue' in value
  return { number: toNumber(value), isInteger, integer: isInteger ? String(value.integerValue) : undefined }
}
