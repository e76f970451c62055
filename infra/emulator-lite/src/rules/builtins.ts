import { createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'
import { crc32cOf } from '../storage/checksums.ts'
import {
  checkInt,
  compare,
  contains,
  dedupe,
  equals,
  fail,
  RConstraint,
  RDuration,
  RLatLng,
  type RMap,
  RMapDiff,
  RPath,
  RSet,
  RTimestamp,
  type RValue,
  typeName,
} from './values.ts'

type Method = (self: never, args: RValue[]) => RValue

const NS_PER_MS = 1_000_000n
const NS_PER_S = 1_000_000_000n
const NS_PER_DAY = 86_400n * NS_PER_S

function arity(args: RValue[], n: number, name: string): void {
  if (args.length !== n) fail(`Function ${name} expects ${n} argument(s), got ${args.length}.`)
}

const asInt = (value: RValue | undefined, what: string): bigint =>
  typeof value === 'bigint' ? value : fail(`${what} expects an int, got ${typeName(value ?? null)}.`)
const asString = (value: RValue | undefined, what: string): string =>
  typeof value === 'string' ? value : fail(`${what} expects a string, got ${typeName(value ?? null)}.`)
const asNumber = (value: RValue | undefined, what: string): number =>
  typeof value === 'bigint' || typeof value === 'number'
    ? Number(value)
    : fail(`${what} expects a number, got ${typeName(value ?? null)}.`)

/** Items of a list or set argument (`hasAll`, `union`…); null and other types are errors. */
function items(value: RValue | undefined, what: string): RValue[] {
  if (Array.isArray(value)) return value
  if (value instanceof RSet) return value.items
  return fail(`${what} expects a list or set, got ${typeName(value ?? null)}.`)
}

// ---- regular expressions: JavaScript RegExp restricted to what RE2 also accepts

const regexCache = new Map<string, RegExp>()
const NOT_RE2 = /\\[1-9]|\(\?[=!]|\(\?<[=!]|\\k</

export function regex(pattern: string, flags = ''): RegExp {
  const key = `${flags}/${pattern}`
  const cached = regexCache.get(key)
  if (cached) return cached
  if (NOT_RE2.test(pattern)) fail(`Invalid regular expression (not RE2): ${pattern}`)
  let compiled: RegExp
  try {
    compiled = new RegExp(pattern, `u${flags}`)
  } catch {
    try {
      compiled = new RegExp(pattern, flags)
    } catch {
      return fail(`Invalid regular expression: ${pattern}`)
    }
  }
  if (regexCache.size > 1000) regexCache.clear()
  regexCache.set(key, compiled)
  return compiled
}

function fullMatch(text: string, pattern: string): boolean {
  return regex(`^(?:${pattern})$`).test(text)
}

// ---- timestamps

function utc(ts: RTimestamp): Date {
  const ms = ts.nanos / NS_PER_MS - (ts.nanos % NS_PER_MS < 0n ? 1n : 0n)
  return new Date(Number(ms))
}

const floorMod = (a: bigint, b: bigint) => ((a % b) + b) % b

const TIMESTAMP_MIN = -62135596800n * NS_PER_S
const TIMESTAMP_MAX = 253402300799999999999n

function timestamp(nanos: bigint): RTimestamp {
  if (nanos < TIMESTAMP_MIN || nanos > TIMESTAMP_MAX) fail('Timestamp out of range.')
  return new RTimestamp(nanos)
}

const STRING_METHODS: Record<string, Method> = {
  size: (s: string, args) => {
    arity(args, 0, 'size')
    return BigInt(s.length)
  },
  matches: (s: string, args) => {
    arity(args, 1, 'matches')
    return fullMatch(s, asString(args[0], 'matches'))
  },
  split: (s: string, args) => {
    arity(args, 1, 'split')
    return s.split(regex(asString(args[0], 'split')))
  },
  lower: (s: string, args) => {
    arity(args, 0, 'lower')
    return s.replace(/[A-Z]+/g, (m) => m.toLowerCase())
  },
  upper: (s: string, args) => {
    arity(args, 0, 'upper')
    return s.replace(/[a-z]+/g, (m) => m.toUpperCase())
  },
  trim: (s: string, args) => {
    arity(args, 0, 'trim')
    return s.trim()
  },
  replace: (s: string, args) => {
    arity(args, 2, 'replace')
    const replacement = asString(args[1], 'replace').replace(/\$/g, '$$$$')
    return s.replace(regex(asString(args[0], 'replace'), 'g'), replacement)
  },
  toUtf8: (s: string, args) => {
    arity(args, 0, 'toUtf8')
    return new Uint8Array(Buffer.from(s, 'utf8'))
  },
}

const LIST_METHODS: Record<string, Method> = {
  size: (l: RValue[], args) => {
    arity(args, 0, 'size')
    return BigInt(l.length)
  },
  hasAll: (l: RValue[], args) => {
    arity(args, 1, 'hasAll')
    return items(args[0], 'hasAll').every((x) => contains(l, x))
  },
  hasAny: (l: RValue[], args) => {
    arity(args, 1, 'hasAny')
    return items(args[0], 'hasAny').some((x) => contains(l, x))
  },
  hasOnly: (l: RValue[], args) => {
    arity(args, 1, 'hasOnly')
    const allowed = items(args[0], 'hasOnly')
    return l.every((x) => contains(allowed, x))
  },
  join: (l: RValue[], args) => {
    arity(args, 1, 'join')
    const separator = asString(args[0], 'join')
    return l.map((x) => asString(x, 'join')).join(separator)
  },
  concat: (l: RValue[], args) => {
    arity(args, 1, 'concat')
    if (!Array.isArray(args[0])) fail('concat expects a list.')
    return [...l, ...(args[0] as RValue[])]
  },
  removeAll: (l: RValue[], args) => {
    arity(args, 1, 'removeAll')
    const remove = items(args[0], 'removeAll')
    return l.filter((x) => !contains(remove, x))
  },
  toSet: (l: RValue[], args) => {
    arity(args, 0, 'toSet')
    return new RSet(dedupe(l))
  },
}

const SET_METHODS: Record<string, Method> = {
  size: (s: RSet, args) => {
    arity(args, 0, 'size')
    return BigInt(s.items.length)
  },
  hasAll: (s: RSet, args) => {
    arity(args, 1, 'hasAll')
    return items(args[0], 'hasAll').every((x) => contains(s.items, x, true))
  },
  hasAny: (s: RSet, args) => {
    arity(args, 1, 'hasAny')
    return items(args[0], 'hasAny').some((x) => contains(s.items, x, true))
  },
  hasOnly: (s: RSet, args) => {
    arity(args, 1, 'hasOnly')
    const allowed = items(args[0], 'hasOnly')
    return s.items.every((x) => contains(allowed, x, true))
  },
  union: (s: RSet, args) => {
    arity(args, 1, 'union')
    return new RSet(dedupe([...s.items, ...items(args[0], 'union')]))
  },
  intersection: (s: RSet, args) => {
    arity(args, 1, 'intersection')
    const other = items(args[0], 'intersection')
    return new RSet(s.items.filter((x) => contains(other, x, true)))
  },
  difference: (s: RSet, args) => {
    arity(args, 1, 'difference')
    const other = items(args[0], 'difference')
    return new RSet(s.items.filter((x) => !contains(other, x, true)))
  },
}

function mapGet(m: RMap, key: RValue): RValue | undefined {
  if (typeof key === 'string') return m.get(key)
  if (!Array.isArray(key)) return fail('Map.get expects a string or a list of strings as key.')
  let current: RValue | undefined = m
  for (const part of key) {
    if (!(current instanceof Map)) return undefined
    current = current.get(asString(part, 'Map.get'))
  }
  return current
}

const MAP_METHODS: Record<string, Method> = {
  keys: (m: RMap, args) => {
    arity(args, 0, 'keys')
    return [...m.keys()]
  },
  values: (m: RMap, args) => {
    arity(args, 0, 'values')
    return [...m.values()]
  },
  size: (m: RMap, args) => {
    arity(args, 0, 'size')
    return BigInt(m.size)
  },
  get: (m: RMap, args) => {
    arity(args, 2, 'get')
    const found = mapGet(m, args[0] as RValue)
    return found === undefined ? (args[1] as RValue) : found
  },
  diff: (m: RMap, args) => {
    arity(args, 1, 'diff')
    if (!(args[0] instanceof Map)) fail(`diff expects a map, got ${typeName(args[0] ?? null)}.`)
    return new RMapDiff(m, args[0] as RMap)
  },
}

const DIFF_METHODS: Record<string, Method> = {
  addedKeys: (d: RMapDiff, args) => {
    arity(args, 0, 'addedKeys')
    return new RSet([...d.left.keys()].filter((k) => !d.right.has(k)))
  },
  removedKeys: (d: RMapDiff, args) => {
    arity(args, 0, 'removedKeys')
    return new RSet([...d.right.keys()].filter((k) => !d.left.has(k)))
  },
  changedKeys: (d: RMapDiff, args) => {
    arity(args, 0, 'changedKeys')
    return new RSet(changed(d, true))
  },
  unchangedKeys: (d: RMapDiff, args) => {
    arity(args, 0, 'unchangedKeys')
    return new RSet(changed(d, false))
  },
  affectedKeys: (d: RMapDiff, args) => {
    arity(args, 0, 'affectedKeys')
    const keys = [...d.left.keys()].filter((k) => !d.right.has(k))
    for (const [k, v] of d.right) if (!d.left.has(k) || !equals(d.left.get(k) as RValue, v, true)) keys.push(k)
    return new RSet(keys)
  },
}

function changed(d: RMapDiff, want: boolean): string[] {
  const keys: string[] = []
  for (const [k, v] of d.left) if (d.right.has(k) && equals(v, d.right.get(k) as RValue, true) !== want) keys.push(k)
  return keys
}

const TIMESTAMP_METHODS: Record<string, Method> = {
  date: (t: RTimestamp, args) => {
    arity(args, 0, 'date')
    return new RTimestamp(t.nanos - floorMod(t.nanos, NS_PER_DAY))
  },
  year: (t: RTimestamp, args) => {
    arity(args, 0, 'year')
    return BigInt(utc(t).getUTCFullYear())
  },
  month: (t: RTimestamp, args) => {
    arity(args, 0, 'month')
    return BigInt(utc(t).getUTCMonth() + 1)
  },
  day: (t: RTimestamp, args) => {
    arity(args, 0, 'day')
    return BigInt(utc(t).getUTCDate())
  },
  hours: (t: RTimestamp, args) => {
    arity(args, 0, 'hours')
    return BigInt(utc(t).getUTCHours())
  },
  minutes: (t: RTimestamp, args) => {
    arity(args, 0, 'minutes')
    return BigInt(utc(t).getUTCMinutes())
  },
  seconds: (t: RTimestamp, args) => {
    arity(args, 0, 'seconds')
    return BigInt(utc(t).getUTCSeconds())
  },
  nanos: (t: RTimestamp, args) => {
    arity(args, 0, 'nanos')
    return floorMod(t.nanos, NS_PER_S)
  },
  dayOfWeek: (t: RTimestamp, args) => {
    arity(args, 0, 'dayOfWeek')
    return BigInt(((utc(t).getUTCDay() + 6) % 7) + 1)
  },
  dayOfYear: (t: RTimestamp, args) => {
    arity(args, 0, 'dayOfYear')
    const date = utc(t)
    return BigInt(
      (Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) - Date.UTC(date.getUTCFullYear(), 0, 1)) /
        86_400_000 +
        1,
    )
  },
  time: (t: RTimestamp, args) => {
    arity(args, 0, 'time')
    return new RDuration(floorMod(t.nanos, NS_PER_DAY))
  },
  toMillis: (t: RTimestamp, args) => {
    arity(args, 0, 'toMillis')
    return t.nanos / NS_PER_MS - (floorMod(t.nanos, NS_PER_MS) !== 0n && t.nanos < 0n ? 1n : 0n)
  },
}

const DURATION_METHODS: Record<string, Method> = {
  seconds: (d: RDuration, args) => {
    arity(args, 0, 'seconds')
    return d.nanos / NS_PER_S
  },
  nanos: (d: RDuration, args) => {
    arity(args, 0, 'nanos')
    return d.nanos % NS_PER_S
  },
}

const BYTES_METHODS: Record<string, Method> = {
  size: (b: Uint8Array, args) => {
    arity(args, 0, 'size')
    return BigInt(b.length)
  },
  toBase64: (b: Uint8Array, args) => {
    arity(args, 0, 'toBase64')
    return Buffer.from(b).toString('base64')
  },
  toHexString: (b: Uint8Array, args) => {
    arity(args, 0, 'toHexString')
    return Buffer.from(b).toString('hex').toUpperCase()
  },
}

const EARTH_RADIUS_M = 6_371_010

const LATLNG_METHODS: Record<string, Method> = {
  latitude: (p: RLatLng, args) => {
    arity(args, 0, 'latitude')
    return p.lat
  },
  longitude: (p: RLatLng, args) => {
    arity(args, 0, 'longitude')
    return p.lng
  },
  distance: (p: RLatLng, args) => {
    arity(args, 1, 'distance')
    const q = args[0]
    if (!(q instanceof RLatLng)) return fail('distance expects a latlng.')
    const rad = Math.PI / 180
    const dLat = (q.lat - p.lat) * rad
    const dLng = (q.lng - p.lng) * rad
    const h = Math.sin(dLat / 2) ** 2 + Math.cos(p.lat * rad) * Math.cos(q.lat * rad) * Math.sin(dLng / 2) ** 2
    return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)))
  },
}

const PATH_METHODS: Record<string, Method> = {
  bind: (p: RPath, args) => {
    arity(args, 1, 'bind')
    const bindings = args[0]
    if (!(bindings instanceof Map)) return fail('bind expects a map.')
    return new RPath(
      p.segments.map((segment) =>
        segment.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) => {
          const value = bindings.get(name)
          return value === undefined ? whole : asString(value, 'bind')
        }),
      ),
    )
  },
}

const CONSTRAINT_METHODS: Record<string, Method> = {
  hasAny: (c: RConstraint, args) => {
    arity(args, 1, 'hasAny')
    const wanted = items(args[0], 'hasAny')
    if (c.filters.some((f) => f.op === 'LIST_CONTAINS' && contains(wanted, f.value))) return true
    return fail('Constraint does not imply hasAny.')
  },
}

/** Every method name some type has: anything else is rejected when the rules are parsed. */
export const KNOWN_METHODS = new Set(
  [
    STRING_METHODS,
    LIST_METHODS,
    SET_METHODS,
    MAP_METHODS,
    DIFF_METHODS,
    TIMESTAMP_METHODS,
    DURATION_METHODS,
    BYTES_METHODS,
    LATLNG_METHODS,
    PATH_METHODS,
  ].flatMap((table) => Object.keys(table)),
)

export function callMethod(self: RValue, name: string, args: RValue[]): RValue {
  let table: Record<string, Method> | undefined
  if (typeof self === 'string') table = STRING_METHODS
  else if (Array.isArray(self)) table = LIST_METHODS
  else if (self instanceof Map) table = MAP_METHODS
  else if (self instanceof RSet) table = SET_METHODS
  else if (self instanceof RMapDiff) table = DIFF_METHODS
  else if (self instanceof RTimestamp) table = TIMESTAMP_METHODS
  else if (self instanceof RDuration) table = DURATION_METHODS
  else if (self instanceof Uint8Array) table = BYTES_METHODS
  else if (self instanceof RLatLng) table = LATLNG_METHODS
  else if (self instanceof RPath) table = PATH_METHODS
  else if (self instanceof RConstraint) table = CONSTRAINT_METHODS
  if (self === null) fail('Null value error.')
  const method = table && Object.hasOwn(table, name) ? table[name] : undefined
  if (!method) return fail(`Function not found error: Name: [${name}] on ${typeName(self)}.`)
  return method(self as never, args)
}

// ---- global functions and namespaces

function formatFloat(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1)
  return String(x)
}

export const GLOBAL_FUNCTIONS: Record<string, (args: RValue[]) => RValue> = {
  int: (args) => {
    arity(args, 1, 'int')
    const x = args[0] as RValue
    if (typeof x === 'bigint') return x
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) fail('Cannot convert a non-finite float to int.')
      return checkInt(BigInt(Math.trunc(x)))
    }
    if (typeof x === 'string' && /^[+-]?\d+$/.test(x.trim())) return checkInt(BigInt(x.trim()))
    return fail(`Cannot convert ${typeName(x)} ${typeof x === 'string' ? JSON.stringify(x) : ''} to int.`)
  },
  float: (args) => {
    arity(args, 1, 'float')
    const x = args[0] as RValue
    if (typeof x === 'number') return x
    if (typeof x === 'bigint') return Number(x)
    if (typeof x === 'string' && /^\s*([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?Infinity|NaN)\s*$/.test(x))
      return Number(x)
    return fail(`Cannot convert ${typeName(x)} to float.`)
  },
  string: (args) => {
    arity(args, 1, 'string')
    const x = args[0] as RValue
    if (x === null) return 'null'
    if (typeof x === 'string') return x
    if (typeof x === 'boolean' || typeof x === 'bigint') return String(x)
    if (typeof x === 'number') return formatFloat(x)
    if (x instanceof RPath) return x.toString()
    return fail(`Cannot convert ${typeName(x)} to string.`)
  },
  bool: (args) => {
    arity(args, 1, 'bool')
    const x = args[0] as RValue
    if (typeof x === 'boolean') return x
    if (x === 'true' || x === 'false') return x === 'true'
    return fail(`Cannot convert ${typeName(x)} to bool.`)
  },
  path: (args) => {
    arity(args, 1, 'path')
    return new RPath(
      asString(args[0], 'path')
        .split('/')
        .filter((s) => s !== ''),
    )
  },
  debug: (args) => {
    arity(args, 1, 'debug')
    return args[0] as RValue
  },
}

function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x)
}

function toIntResult(x: number): bigint {
  if (!Number.isFinite(x)) fail('Cannot convert a non-finite float to int.')
  return checkInt(BigInt(x))
}

function hashInput(value: RValue | undefined, what: string): Buffer {
  if (typeof value === 'string') return Buffer.from(value, 'utf8')
  if (value instanceof Uint8Array) return Buffer.from(value)
  return fail(`${what} expects bytes or a string, got ${typeName(value ?? null)}.`)
}

function uint32Bytes(n: number): Uint8Array {
  const out = Buffer.alloc(4)
  out.writeUInt32BE(n >>> 0)
  return new Uint8Array(out)
}

const DURATION_UNITS: Record<string, bigint> = {
  w: 7n * NS_PER_DAY,
  d: NS_PER_DAY,
  h: 3600n * NS_PER_S,
  m: 60n * NS_PER_S,
  s: NS_PER_S,
  ms: NS_PER_MS,
  ns: 1n,
}

export const NAMESPACES: Record<string, Record<string, (args: RValue[]) => RValue>> = {
  math: {
    abs: (args) => {
      arity(args, 1, 'math.abs')
      const x = args[0]
      if (typeof x === 'bigint') return checkInt(x < 0n ? -x : x)
      return Math.abs(asNumber(x, 'math.abs'))
    },
    ceil: (args) => {
      arity(args, 1, 'math.ceil')
      return typeof args[0] === 'bigint' ? args[0] : toIntResult(Math.ceil(asNumber(args[0], 'math.ceil')))
    },
    floor: (args) => {
      arity(args, 1, 'math.floor')
      return typeof args[0] === 'bigint' ? args[0] : toIntResult(Math.floor(asNumber(args[0], 'math.floor')))
    },
    round: (args) => {
      arity(args, 1, 'math.round')
      return typeof args[0] === 'bigint' ? args[0] : toIntResult(roundHalfAway(asNumber(args[0], 'math.round')))
    },
    sqrt: (args) => {
      arity(args, 1, 'math.sqrt')
      return Math.sqrt(asNumber(args[0], 'math.sqrt'))
    },
    pow: (args) => {
      arity(args, 2, 'math.pow')
      return asNumber(args[0], 'math.pow') ** asNumber(args[1], 'math.pow')
    },
    isInfinite: (args) => {
      arity(args, 1, 'math.isInfinite')
      const x = asNumber(args[0], 'math.isInfinite')
      return x === Number.POSITIVE_INFINITY || x === Number.NEGATIVE_INFINITY
    },
    isNaN: (args) => {
      arity(args, 1, 'math.isNaN')
      return Number.isNaN(asNumber(args[0], 'math.isNaN'))
    },
  },
  timestamp: {
    value: (args) => {
      arity(args, 1, 'timestamp.value')
      return timestamp(asInt(args[0], 'timestamp.value') * NS_PER_MS)
    },
    date: (args) => {
      arity(args, 3, 'timestamp.date')
      const [y, m, d] = args.map((a) => Number(asInt(a, 'timestamp.date'))) as [number, number, number]
      if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1 || y > 9999) fail('Invalid date.')
      const date = new Date(0)
      date.setUTCFullYear(y, m - 1, d)
      if (date.getUTCMonth() !== m - 1) fail('Invalid date.')
      return timestamp(BigInt(date.getTime()) * NS_PER_MS)
    },
  },
  duration: {
    value: (args) => {
      arity(args, 2, 'duration.value')
      const unit = DURATION_UNITS[asString(args[1], 'duration.value')]
      if (unit === undefined) return fail(`Invalid duration unit ${String(args[1])}.`)
      const n = args[0]
      if (typeof n === 'bigint') return new RDuration(checkInt(n * unit))
      return new RDuration(checkInt(BigInt(Math.trunc(asNumber(n, 'duration.value') * Number(unit)))))
    },
    time: (args) => {
      arity(args, 4, 'duration.time')
      const [h, m, s, ns] = args.map((a) => asInt(a, 'duration.time')) as [bigint, bigint, bigint, bigint]
      return new RDuration(checkInt(((h * 60n + m) * 60n + s) * NS_PER_S + ns))
    },
    abs: (args) => {
      arity(args, 1, 'duration.abs')
      const d = args[0]
      if (!(d instanceof RDuration)) return fail('duration.abs expects a duration.')
      return new RDuration(d.nanos < 0n ? -d.nanos : d.nanos)
    },
  },
  latlng: {
    value: (args) => {
      arity(args, 2, 'latlng.value')
      const lat = asNumber(args[0], 'latlng.value')
      const lng = asNumber(args[1], 'latlng.value')
      if (!(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180)) fail('Invalid latlng.')
      return new RLatLng(lat, lng)
    },
  },
  hashing: {
    crc32: (args) => {
      arity(args, 1, 'hashing.crc32')
      return uint32Bytes(crc32(hashInput(args[0], 'hashing.crc32')))
    },
    crc32c: (args) => {
      arity(args, 1, 'hashing.crc32c')
      return uint32Bytes(crc32cOf(hashInput(args[0], 'hashing.crc32c')))
    },
    md5: (args) => {
      arity(args, 1, 'hashing.md5')
      return new Uint8Array(createHash('md5').update(hashInput(args[0], 'hashing.md5')).digest())
    },
    sha256: (args) => {
      arity(args, 1, 'hashing.sha256')
      return new Uint8Array(createHash('sha256').update(hashInput(args[0], 'hashing.sha256')).digest())
    },
  },
}

// ---- operators

const unsupported = (op: string, a: RValue, b: RValue): never =>
  fail(`Unsupported operation error. Received: ${typeName(a)} ${op} ${typeName(b)}.`)

export function add(a: RValue, b: RValue): RValue {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkInt(a + b)
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint'))
    return Number(a) + Number(b)
  if (typeof a === 'string' && typeof b === 'string') return a + b
  if (a instanceof RTimestamp && b instanceof RDuration) return timestamp(a.nanos + b.nanos)
  if (a instanceof RDuration && b instanceof RTimestamp) return timestamp(a.nanos + b.nanos)
  if (a instanceof RDuration && b instanceof RDuration) return new RDuration(checkInt(a.nanos + b.nanos))
  return unsupported('+', a, b)
}

export function arithmetic(op: '-' | '*' | '/' | '%', a: RValue, b: RValue): RValue {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    switch (op) {
      case '-':
        return checkInt(a - b)
      case '*':
        return checkInt(a * b)
      case '/':
        if (b === 0n) fail('Division by zero error.')
        return checkInt(a / b)
      case '%':
        if (b === 0n) fail('Modulo by zero error.')
        return a % b
    }
  }
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    const x = Number(a)
    const y = Number(b)
    switch (op) {
      case '-':
        return x - y
      case '*':
        return x * y
      case '/':
        return x / y
      case '%':
        return x % y
    }
  }
  if (op === '-') {
    if (a instanceof RTimestamp && b instanceof RDuration) return timestamp(a.nanos - b.nanos)
    if (a instanceof RTimestamp && b instanceof RTimestamp) return new RDuration(checkInt(a.nanos - b.nanos))
    if (a instanceof RDuration && b instanceof RDuration) return new RDuration(checkInt(a.nanos - b.nanos))
  }
  return unsupported(op, a, b)
}

export type Comparison = '==' | '!=' | '<' | '<=' | '>' | '>='
const FLIP: Record<Comparison, Comparison> = { '==': '==', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' }

export function compareOp(op: Comparison, a: RValue, b: RValue): boolean {
  if (a instanceof RConstraint) return constraintHolds(a, op, b)
  if (b instanceof RConstraint) return constraintHolds(b, FLIP[op], a)
  if (op === '==') return equals(a, b)
  if (op === '!=') return !equals(a, b)
  const order = compare(a, b)
  if (order === undefined) return unsupported(op, a, b)
  switch (op) {
    case '<':
      return order < 0
    case '<=':
      return order <= 0
    case '>':
      return order > 0
    default:
      return order >= 0
  }
}

/** Orders a filter value against a rule value; a float filter proves nothing about an int (docs/wire/rules.md#constraints). */
function filterOrder(filter: RValue, value: RValue): number | undefined {
  if (typeof filter === 'number' && typeof value === 'bigint') return undefined
  const order = compare(filter, value)
  return order === undefined || Number.isNaN(order) ? undefined : order
}

/** `c <op> v` is true when one single filter of `c` implies it; otherwise an error, never false. */
function constraintHolds(c: RConstraint, op: Comparison, value: RValue): boolean {
  if (op === '!=' && value === null) return true
  for (const { op: fop, value: fv } of c.filters) {
    if (fop === 'LIST_CONTAINS') continue
    if (op === '==' || op === '!=') {
      if (fop === 'EQ' && equals(fv, value)) {
        if (op === '==') return true
        continue
      }
      if (op === '!=' && fop === 'NEQ' && equals(fv, value)) return true
    }
    const order = filterOrder(fv, value)
    if (order === undefined) continue
    switch (op) {
      case '!=':
        if ((fop === 'EQ' && order !== 0) || (fop === 'GT' && order >= 0) || (fop === 'GTE' && order > 0)) return true
        if ((fop === 'LT' && order <= 0) || (fop === 'LTE' && order < 0)) return true
        break
      case '<':
        if ((fop === 'LT' && order <= 0) || ((fop === 'LTE' || fop === 'EQ') && order < 0)) return true
        break
      case '<=':
        if ((fop === 'LT' || fop === 'LTE' || fop === 'EQ') && order <= 0) return true
        break
      case '>':
        if ((fop === 'GT' && order >= 0) || ((fop === 'GTE' || fop === 'EQ') && order > 0)) return true
        break
      case '>=':
        if ((fop === 'GT' || fop === 'GTE' || fop === 'EQ') && order >= 0) return true
        break
    }
  }
  return fail(`The query's constraints do not imply ${op} ${typeName(value)}.`)
}

export function inOp(a: RValue, b: RValue): boolean {
  if (b instanceof RConstraint) {
    if (b.filters.some((f) => f.op === 'LIST_CONTAINS' && equals(f.value, a))) return true
    return fail("The query's constraints do not imply 'in'.")
  }
  if (a instanceof RConstraint) {
    if (Array.isArray(b)) return false
    return unsupported('in', a, b)
  }
  if (Array.isArray(b)) return contains(b, a)
  if (b instanceof RSet) return contains(b.items, a, true)
  if (b instanceof Map) {
    if (typeof a !== 'string') return unsupported('in', a, b)
    return b.has(a)
  }
  if (b === null) return fail('Null value error.')
  return unsupported('in', a, b)
}

export function isType(value: RValue, type: string): boolean {
  const actual = typeName(value)
  if (type === 'number') return actual === 'int' || actual === 'float'
  return actual === type
}

export function index(target: RValue, key: RValue): RValue {
  if (target instanceof Map) {
    if (typeof key !== 'string') return unsupported('[]', target, key)
    const value = target.get(key)
    if (value === undefined) fail(`Property ${key} is undefined on object.`)
    return value as RValue
  }
  if (Array.isArray(target) || typeof target === 'string' || target instanceof RPath) {
    if (typeof key !== 'bigint') return unsupported('[]', target, key)
    const seq = target instanceof RPath ? target.segments : target
    if (key < 0n || key >= BigInt(seq.length)) fail(`Index out of range: ${key}.`)
    return seq[Number(key)] as RValue
  }
  if (target === null) return fail('Null value error.')
  return unsupported('[]', target, key)
}

export function slice(target: RValue, from: RValue | undefined, to: RValue | undefined): RValue {
  if (!Array.isArray(target) && typeof target !== 'string') {
    if (target === null) fail('Null value error.')
    return fail(`Unsupported operation error. Received: ${typeName(target)}[:].`)
  }
  const size = BigInt(target.length)
  const start = from === undefined ? 0n : asInt(from, 'slice')
  const end = to === undefined ? size : asInt(to, 'slice')
  // As production: a given start must index an element, and so must a given end minus one, so
  // `x[0:0]` and `x[n:]` are errors while `x[1:1]` (n > 1) is empty (found by the rules differential).
  const index = (i: bigint) => {
    if (i < 0n || i >= size) fail(`Index out of bound error. Index: [${i}] , size: [${size}].`)
  }
  if (from !== undefined) index(start)
  if (to !== undefined) index(end - 1n)
  if (start > end) fail(`Illegal range error. From index: [${start}] , To index: [${end}].`)
  return target.slice(Number(start), Number(end))
}

export function member(target: RValue, name: string): RValue {
  if (target instanceof Map) {
    const value = target.get(name)
    if (value === undefined) fail(`Property ${name} is undefined on object.`)
    return value as RValue
  }
  if (target === null) return fail('Null value error.')
  return fail(`Property ${name} is undefined on ${typeName(target)}.`)
}
