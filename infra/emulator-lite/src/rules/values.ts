import type { Fields, Value } from '../firestore/values.ts'
import { parseTimestamp } from '../firestore/values.ts'

// Runtime values: int is bigint and float is number, so the two never mix by accident.
export type RValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | RValue[]
  | RMap
  | RSet
  | RPath
  | RTimestamp
  | RDuration
  | RLatLng
  | RMapDiff
  | RConstraint
export type RMap = Map<string, RValue>

export class RSet {
  constructor(readonly items: RValue[]) {}
}
export class RPath {
  constructor(readonly segments: string[]) {}
  toString(): string {
    return `/${this.segments.join('/')}`
  }
}
export class RTimestamp {
  constructor(readonly nanos: bigint) {}
}
export class RDuration {
  constructor(readonly nanos: bigint) {}
}
export class RLatLng {
  constructor(
    readonly lat: number,
    readonly lng: number,
  ) {}
}
export class RMapDiff {
  constructor(
    readonly left: RMap,
    readonly right: RMap,
  ) {}
}
export type ConstraintOp = 'EQ' | 'NEQ' | 'LT' | 'LTE' | 'GT' | 'GTE' | 'LIST_CONTAINS'
/** A field a list query constrains without fixing its value (docs/wire/rules.md#constraints). */
export class RConstraint {
  constructor(readonly filters: { op: ConstraintOp; value: RValue }[]) {}
}

/** An evaluation error: a plain object, not an Error, so throwing it captures no stack. */
export class RulesEvalError {
  constructor(readonly message: string) {}
}

export const fail = (message: string): never => {
  throw new RulesEvalError(message)
}

/** A per-request limit was exceeded: denies the request, and `&&`/`||` do not absorb it. */
export class RulesLimitError extends RulesEvalError {}

export const failLimit = (message: string): never => {
  throw new RulesLimitError(message)
}

export const INT_MAX = 2n ** 63n - 1n
export const INT_MIN = -(2n ** 63n)

export function checkInt(value: bigint): bigint {
  if (value > INT_MAX || value < INT_MIN) fail('Integer overflow error.')
  return value
}

export function typeName(value: RValue): string {
  if (value === null) return 'null'
  switch (typeof value) {
    case 'boolean':
      return 'bool'
    case 'bigint':
      return 'int'
    case 'number':
      return 'float'
    case 'string':
      return 'string'
  }
  if (Array.isArray(value)) return 'list'
  if (value instanceof Map) return 'map'
  if (value instanceof Uint8Array) return 'bytes'
  if (value instanceof RSet) return 'set'
  if (value instanceof RPath) return 'path'
  if (value instanceof RTimestamp) return 'timestamp'
  if (value instanceof RDuration) return 'duration'
  if (value instanceof RLatLng) return 'latlng'
  if (value instanceof RMapDiff) return 'map_diff'
  return 'constraint'
}

const isNum = (value: RValue): value is bigint | number => typeof value === 'bigint' || typeof value === 'number'

/**
 * Equality. `loose` compares int and float by value: always at the top level, and at every depth
 * inside sets and map diffs; lists and maps otherwise need the same number type (docs/wire/rules.md#equality).
 */
export function equals(a: RValue, b: RValue, deepLoose = false): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a)
  if (isNum(a) && isNum(b)) {
    if (typeof a === typeof b) return a === b
    return Number(a) === Number(b) && (typeof a === 'bigint' ? Number.isInteger(b) : Number.isInteger(a))
  }
  return structuralEquals(a, b, deepLoose)
}

function innerEquals(a: RValue, b: RValue, deepLoose: boolean): boolean {
  if (!deepLoose && isNum(a) && isNum(b) && typeof a !== typeof b) return false
  return equals(a, b, deepLoose)
}

function structuralEquals(a: RValue, b: RValue, deepLoose: boolean): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!innerEquals(a[i] as RValue, b[i] as RValue, deepLoose)) return false
    return true
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false
    for (const [key, value] of a) {
      if (!b.has(key) || !innerEquals(value, b.get(key) as RValue, deepLoose)) return false
    }
    return true
  }
  if (a instanceof Uint8Array) return b instanceof Uint8Array && Buffer.from(a).equals(Buffer.from(b))
  if (a instanceof RSet) {
    if (!(b instanceof RSet)) return false
    const left = dedupe(a.items)
    const right = dedupe(b.items)
    return left.length === right.length && left.every((item) => right.some((other) => equals(item, other, true)))
  }
  if (a instanceof RPath) {
    return (
      b instanceof RPath && a.segments.length === b.segments.length && a.segments.every((s, i) => s === b.segments[i])
    )
  }
  if (a instanceof RTimestamp) return b instanceof RTimestamp && a.nanos === b.nanos
  if (a instanceof RDuration) return b instanceof RDuration && a.nanos === b.nanos
  if (a instanceof RLatLng) return b instanceof RLatLng && a.lat === b.lat && a.lng === b.lng
  if (a instanceof RMapDiff) {
    return b instanceof RMapDiff && equals(a.left, b.left, true) && equals(a.right, b.right, true)
  }
  return false
}

/** Distinct items; of items equal by value (1 and 1.0) the first is kept. */
export function dedupe(items: RValue[]): RValue[] {
  const out: RValue[] = []
  for (const item of items) if (!out.some((seen) => equals(seen, item, true))) out.push(item)
  return out
}

export function contains(items: RValue[], value: RValue, deepLoose = false): boolean {
  for (const item of items) if (equals(item, value, deepLoose)) return true
  return false
}

/** Ordering; undefined when the two values are not ordered against each other. */
export function compare(a: RValue, b: RValue): number | undefined {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0
  if (isNum(a) && isNum(b)) {
    const x = Number(a)
    const y = Number(b)
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.NaN
    return x < y ? -1 : x > y ? 1 : 0
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0
  if (a instanceof RTimestamp && b instanceof RTimestamp) return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0
  if (a instanceof RDuration && b instanceof RDuration) return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(Buffer.from(a), Buffer.from(b))
  return undefined
}

/** `/databases/(default)/documents/users/x` from `projects/p/databases/(default)/documents/users/x`. */
export function referenceToPath(reference: string): RPath {
  const segments = reference.split('/')
  return new RPath(segments[0] === 'projects' ? segments.slice(2) : segments.filter((s) => s !== ''))
}

function doubleOf(raw: unknown): number {
  return typeof raw === 'number' ? raw : Number(raw)
}

/** Converts a Firestore REST value to a rules value. */
export function fromValue(value: Value): RValue {
  if ('stringValue' in value) return String(value.stringValue)
  if ('integerValue' in value) return BigInt(String(value.integerValue))
  if ('booleanValue' in value) return value.booleanValue === true
  if ('doubleValue' in value) return doubleOf(value.doubleValue)
  if ('nullValue' in value) return null
  if ('mapValue' in value) return fromFields(((value.mapValue as { fields?: Fields } | null)?.fields ?? {}) as Fields)
  if ('arrayValue' in value) {
    const values = ((value.arrayValue as { values?: Value[] } | null)?.values ?? []) as Value[]
    return values.map(fromValue)
  }
  if ('timestampValue' in value) return new RTimestamp(parseTimestamp(value.timestampValue))
  if ('referenceValue' in value) return referenceToPath(String(value.referenceValue))
  if ('bytesValue' in value) return new Uint8Array(Buffer.from(String(value.bytesValue), 'base64'))
  if ('geoPointValue' in value) {
    const point = value.geoPointValue as { latitude?: number; longitude?: number }
    return new RLatLng(point.latitude ?? 0, point.longitude ?? 0)
  }
  return fail('Unsupported Firestore value.')
}

export function fromFields(fields: Fields): RMap {
  const map: RMap = new Map()
  for (const key in fields) map.set(key, fromValue(fields[key] as Value))
  return map
}

/** Converts plain JSON (decoded token claims, storage metadata) to rules values; numbers become int when integral. */
export function fromJson(value: unknown): RValue {
  if (value === null || value === undefined) return null
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return value
    case 'number':
      return Number.isSafeInteger(value) ? BigInt(value) : value
    case 'bigint':
      return value
  }
  if (Array.isArray(value)) return value.map(fromJson)
  if (value instanceof Date) return new RTimestamp(BigInt(value.getTime()) * 1_000_000n)
  if (value instanceof Uint8Array) return value
  const map: RMap = new Map()
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) map.set(key, fromJson(inner))
  return map
}
