import { ApiError, invalid } from '../http/errors.ts'

/** A Firestore Value in its REST JSON form, stored exactly as the SDKs send it. */
export type Value = Record<string, unknown>
export type Fields = Record<string, Value>

export const INT64_MAX = 2n ** 63n - 1n
export const INT64_MIN = -(2n ** 63n)

const TIMESTAMP = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/

/** Parses an RFC 3339 timestamp into nanoseconds since the epoch (numeric, so 3/6/9 digits compare equal). */
export function parseTimestamp(text: unknown): bigint {
  if (typeof text !== 'string') throw invalid('Invalid timestamp')
  const match = TIMESTAMP.exec(text)
  if (!match) throw invalid(`Invalid timestamp: ${text.slice(0, 64)}`)
  const [, , , , , , , fraction = '', zone] = match
  const millis = Date.parse(`${text.slice(0, 19)}${zone === 'Z' ? 'Z' : zone}`)
  if (Number.isNaN(millis)) throw invalid(`Invalid timestamp: ${text.slice(0, 64)}`)
  return BigInt(millis) * 1_000_000n + BigInt(fraction.padEnd(9, '0'))
}

/** Always UTC with a `Z` and nine fraction digits: Lite asserts on anything else. */
let cachedSecond = Number.NaN
let cachedBase = ''

export function formatTimestamp(nanos: bigint): string {
  // Whole seconds rounded down, so a time before 1970 keeps a positive fraction of the second before.
  const fractionNanos = ((nanos % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n
  const second = Number((nanos - fractionNanos) / 1_000_000_000n)
  // Every response carries a readTime: the date part is formatted once per second, not per call.
  if (second !== cachedSecond) {
    cachedBase = new Date(second * 1000).toISOString().slice(0, 19)
    cachedSecond = second
  }
  return `${cachedBase}.${fractionNanos.toString().padStart(9, '0')}Z`
}

/**
 * Firestore keeps timestamps to the microsecond: stored values lose their last three digits
 * (rounded down), as the official emulator and production do (found by the differential).
 */
export function truncateTimestamps(fields: Fields): void {
  for (const value of Object.values(fields)) truncateValue(value)
}

function truncateValue(value: Value): void {
  if ('timestampValue' in value) {
    const nanos = parseTimestamp(value.timestampValue)
    const micros = nanos - (((nanos % 1000n) + 1000n) % 1000n)
    if (micros !== nanos) value.timestampValue = formatTimestamp(micros)
  } else if ('arrayValue' in value) for (const item of arrayValues(value)) truncateValue(item)
  else if ('mapValue' in value) truncateTimestamps(mapFields(value))
}

const TYPE_KEYS = [
  'nullValue',
  'booleanValue',
  'integerValue',
  'doubleValue',
  'timestampValue',
  'stringValue',
  'bytesValue',
  'referenceValue',
  'geoPointValue',
  'arrayValue',
  'mapValue',
] as const
type TypeKey = (typeof TYPE_KEYS)[number]

const TYPE_INDEX = new Map<string, number>(TYPE_KEYS.map((key, index) => [key, index]))

/**
 * The value's type: of the type keys it has, the first in TYPE_KEYS order. One pass over its own
 * keys (a value has one; queries call this for every comparison of a sort).
 */
export function typeKey(value: Value): TypeKey {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('A value must be an object')
  let best: number = TYPE_KEYS.length
  for (const key in value) {
    const index = TYPE_INDEX.get(key)
    if (index !== undefined && index < best) best = index
  }
  const key = TYPE_KEYS[best] as TypeKey | undefined
  if (key === undefined) throw invalid(`Unknown value type: ${JSON.stringify(value).slice(0, 80)}`)
  return key
}

/** Checks a value (recursively) so bad input is rejected before anything is stored. */
export function validateValue(value: unknown, depth = 0): asserts value is Value {
  if (depth > 100) throw invalid('Value nesting exceeds 100 levels')
  const key = typeKey(value as Value)
  const inner = (value as Value)[key]
  switch (key) {
    case 'nullValue':
      if (inner !== null && inner !== 'NULL_VALUE' && inner !== 0) throw invalid('Invalid nullValue')
      return
    case 'booleanValue':
      if (typeof inner !== 'boolean') throw invalid('Invalid booleanValue')
      return
    case 'integerValue':
      if (!/^-?\d{1,19}$/.test(String(inner)) || (typeof inner !== 'string' && typeof inner !== 'number'))
        throw invalid('Invalid integerValue')
      if (BigInt(String(inner)) > INT64_MAX || BigInt(String(inner)) < INT64_MIN)
        throw invalid(`integerValue ${String(inner)} is outside the int64 range`)
      return
    case 'doubleValue':
      if (
        typeof inner !== 'number' &&
        !['NaN', 'Infinity', '-Infinity', '-0'].includes(String(inner)) &&
        Number.isNaN(Number(inner))
      )
        throw invalid('Invalid doubleValue')
      return
    case 'timestampValue':
      parseTimestamp(inner)
      return
    case 'stringValue':
    case 'bytesValue':
    case 'referenceValue':
      if (typeof inner !== 'string') throw invalid(`Invalid ${key}`)
      return
    case 'geoPointValue': {
      const point = inner as { latitude?: unknown; longitude?: unknown } | null
      if (typeof point !== 'object' || point === null) throw invalid('Invalid geoPointValue')
      if (point.latitude !== undefined && typeof point.latitude !== 'number') throw invalid('Invalid latitude')
      if (point.longitude !== undefined && typeof point.longitude !== 'number') throw invalid('Invalid longitude')
      return
    }
    case 'arrayValue': {
      const values = (inner as { values?: unknown } | null)?.values ?? []
      if (typeof inner !== 'object' || inner === null || !Array.isArray(values)) throw invalid('Invalid arrayValue')
      for (const item of values) validateValue(item, depth + 1)
      return
    }
    case 'mapValue':
      validateFields((inner as { fields?: unknown } | null)?.fields ?? {}, depth + 1)
      return
  }
}

export function validateFields(fields: unknown, depth = 0): asserts fields is Fields {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw invalid('fields must be a map')
  for (const value of Object.values(fields)) validateValue(value, depth)
}

export function toNumber(value: Value): number {
  if ('integerValue' in value) return Number(value.integerValue)
  const double = value.doubleValue
  return typeof double === 'number' ? double : Number(double)
}

/** A double the server computed: JSON has no NaN or ±Infinity, so those travel as strings. */
export function doubleValue(number: number): Value {
  return { doubleValue: Number.isFinite(number) ? number : String(number) }
}

export const isNumber = (value: Value) => 'integerValue' in value || 'doubleValue' in value
export const isNaNValue = (value: Value) => 'doubleValue' in value && Number.isNaN(toNumber(value))
export const isNull = (value: Value) => 'nullValue' in value
export const arrayValues = (value: Value): Value[] =>
  ((value.arrayValue as { values?: Value[] } | undefined)?.values ?? []) as Value[]
export const mapFields = (value: Value): Fields =>
  ((value.mapValue as { fields?: Fields } | undefined)?.fields ?? {}) as Fields

/** Firestore's cross-type order: null, boolean, NaN, numbers, timestamp, string, bytes, reference, geo, array, map. */
function typeRank(value: Value): number {
  const key = typeKey(value)
  switch (key) {
    case 'nullValue':
      return 0
    case 'booleanValue':
      return 1
    case 'integerValue':
    case 'doubleValue':
      return 2
    case 'timestampValue':
      return 3
    case 'stringValue':
      return 4
    case 'bytesValue':
      return 5
    case 'referenceValue':
      return 6
    case 'geoPointValue':
      return 7
    case 'arrayValue':
      return 8
    case 'mapValue':
      return isVector(value) ? 9 : 10
  }
}

function isVector(value: Value): boolean {
  const type = mapFields(value).__type__
  return type !== undefined && type.stringValue === '__vector__'
}

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0)

function compareNumbers(a: Value, b: Value): number {
  const x = toNumber(a)
  const y = toNumber(b)
  if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : -1
  if (Number.isNaN(y)) return 1
  if ('integerValue' in a && 'integerValue' in b) {
    const bx = BigInt(String(a.integerValue))
    const by = BigInt(String(b.integerValue))
    return bx < by ? -1 : bx > by ? 1 : 0
  }
  return sign(x - y)
}

export function compareStrings(a: string, b: string): number {
  if (a === b) return 0
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    // Two units outside the surrogates: UTF-16 order is code point order is UTF-8 byte order.
    if (!isSurrogate(x) && !isSurrogate(y)) return x < y ? -1 : 1
    return compareUtf8(a, b)
  }
  // One is a prefix of the other; a surrogate at its end may encode differently alone.
  if (length > 0 && isSurrogate(a.charCodeAt(length - 1))) return compareUtf8(a, b)
  return sign(a.length - b.length)
}

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff

/** Firestore's string order: the UTF-8 bytes (a lone surrogate encodes as U+FFFD). */
function compareUtf8(a: string, b: string): number {
  return sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')))
}

/** Compares document names segment by segment (so `users\u0000` sorts right after `users`). */
export function compareReferences(a: string, b: string): number {
  const left = a.split('/')
  const right = b.split('/')
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = compareSegments(left[i] ?? '', right[i] ?? '')
    if (order !== 0) return order
  }
  return sign(left.length - right.length)
}

const NUMERIC_ID = /^__id(-?\d+)__$/
function compareSegments(a: string, b: string): number {
  const na = NUMERIC_ID.exec(a)
  const nb = NUMERIC_ID.exec(b)
  if (na && nb) {
    const x = BigInt(na[1] ?? '0')
    const y = BigInt(nb[1] ?? '0')
    return x < y ? -1 : x > y ? 1 : 0
  }
  if (na) return -1
  if (nb) return 1
  return compareStrings(a, b)
}

export function compareValues(a: Value, b: Value): number {
  const rankDiff = typeRank(a) - typeRank(b)
  if (rankDiff !== 0) return sign(rankDiff)
  const key = typeKey(a)
  switch (key) {
    case 'nullValue':
      return 0
    case 'booleanValue':
      return sign(Number(a.booleanValue) - Number(b.booleanValue))
    case 'integerValue':
    case 'doubleValue':
      return compareNumbers(a, b)
    case 'timestampValue': {
      const x = parseTimestamp(a.timestampValue)
      const y = parseTimestamp(b.timestampValue)
      return x < y ? -1 : x > y ? 1 : 0
    }
    case 'stringValue':
      return compareStrings(String(a.stringValue), String(b.stringValue))
    case 'bytesValue':
      return sign(
        Buffer.compare(Buffer.from(String(a.bytesValue), 'base64'), Buffer.from(String(b.bytesValue), 'base64')),
      )
    case 'referenceValue':
      return compareReferences(String(a.referenceValue), String(b.referenceValue))
    case 'geoPointValue': {
      const x = a.geoPointValue as { latitude?: number; longitude?: number }
      const y = b.geoPointValue as { latitude?: number; longitude?: number }
      return sign((x.latitude ?? 0) - (y.latitude ?? 0)) || sign((x.longitude ?? 0) - (y.longitude ?? 0))
    }
    case 'arrayValue':
      return compareArrays(arrayValues(a), arrayValues(b))
    case 'mapValue':
      return isVector(a) ? compareVectors(a, b) : compareMaps(mapFields(a), mapFields(b))
  }
}

/** Vectors order by dimension first, then element by element (so [100] comes before [1, 2]). */
function compareVectors(a: Value, b: Value): number {
  const left = arrayValues(mapFields(a).value ?? {})
  const right = arrayValues(mapFields(b).value ?? {})
  return sign(left.length - right.length) || compareArrays(left, right)
}

function compareArrays(a: Value[], b: Value[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareValues(a[i] as Value, b[i] as Value)
    if (order !== 0) return order
  }
  return sign(a.length - b.length)
}

function compareMaps(a: Fields, b: Fields): number {
  const left = Object.keys(a).sort(compareStrings)
  const right = Object.keys(b).sort(compareStrings)
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const keyOrder = compareStrings(left[i] as string, right[i] as string)
    if (keyOrder !== 0) return keyOrder
    const order = compareValues(a[left[i] as string] as Value, b[right[i] as string] as Value)
    if (order !== 0) return order
  }
  return sign(left.length - right.length)
}

/** Equality as Firestore filters see it: 1 == 1.0, NaN != NaN, deep for arrays and maps. */
export function valuesEqual(a: Value, b: Value): boolean {
  if (isNaNValue(a) || isNaNValue(b)) return false
  return typeRank(a) === typeRank(b) && compareValues(a, b) === 0
}

export const assertNever = (message: string): never => {
  throw new ApiError('INVALID_ARGUMENT', message)
}
