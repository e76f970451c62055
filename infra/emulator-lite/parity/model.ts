import fc from 'fast-check'
import {
  AggregateField,
  DocumentReference,
  FieldPath,
  FieldValue,
  Filter,
  type Firestore,
  GeoPoint,
  type Query,
  Timestamp,
} from 'firebase-admin/firestore'

// The differential's vocabulary: documents, queries and writes as plain data (so fast-check can
// generate, shrink and print them), turned into firebase-admin calls against either target.

/** A Firestore value, abstractly. References name a document path inside the target's database. */
export type V =
  | null
  | boolean
  | { int: number }
  | { dbl: number }
  | { str: string }
  | { bytes: number[] }
  | { ref: string }
  | { geo: [number, number] }
  | { ts: [number, number] }
  | { arr: V[] }
  | { map: Record<string, V> }

// Strings that sort differently by UTF-16 code unit (JavaScript) and by UTF-8 byte (Firestore):
// U+FFFF and U+E000 come after a surrogate pair in UTF-16, before it in UTF-8.
// Those four twice as often as the rest: they are where an engine that sorts like JavaScript goes wrong.
const UTF16_VS_UTF8 = ['\ue000', '\uffff', '😀', '\u{10000}']
const STRINGS = [
  '',
  'a',
  'A',
  'b',
  'ab',
  'é',
  'z',
  '\u00ff',
  'a\u0000',
  ' ',
  '10',
  '9',
  ...UTF16_VS_UTF8,
  ...UTF16_VS_UTF8,
]
export const IDS = ['a', 'b', 'B', 'ab', 'é', '😀', '\uffff', '\ue000', '1', '10', '9', 'z']
const DOUBLES = [
  Number.NaN,
  -0,
  0.5,
  -1.5,
  2.5,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1e300,
  -1e-300,
  3.25,
]
const INTS = [0, 1, -1, 2, 3, 10, -7, 2 ** 53 - 1, -(2 ** 53 - 1)]
const TIMESTAMPS: [number, number][] = [
  [0, 0],
  [0, 1],
  [1, 0],
  [-1, 999_999_999],
  [1_700_000_000, 500],
  [253402300799, 999_999_999],
  [-62135596800, 0],
]

export const scalar: fc.Arbitrary<V> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  { arbitrary: fc.boolean(), weight: 2 },
  { arbitrary: fc.constantFrom(...INTS).map((int) => ({ int })), weight: 5 },
  { arbitrary: fc.constantFrom(...DOUBLES).map((dbl) => ({ dbl })), weight: 4 },
  { arbitrary: fc.constantFrom(...STRINGS).map((str) => ({ str })), weight: 5 },
  { arbitrary: fc.constantFrom<number[]>([], [0], [0, 1], [1], [255], [0, 0]).map((bytes) => ({ bytes })), weight: 1 },
  { arbitrary: fc.constantFrom('r/a', 'r/b', 'r/a/s/a', 'r/😀', 'r/\uffff').map((ref) => ({ ref })), weight: 1 },
  {
    arbitrary: fc.constantFrom<[number, number]>([0, 0], [-90, 180], [10.5, -3], [0, -0.5], [90, 0]).map((geo) => ({
      geo,
    })),
    weight: 1,
  },
  { arbitrary: fc.constantFrom(...TIMESTAMPS).map((ts) => ({ ts })), weight: 2 },
)

/** Any value: scalars, arrays of scalars or maps, maps of anything (arrays may not hold arrays). */
export const value: fc.Arbitrary<V> = fc.letrec<{ v: V; inArray: V; map: V }>((tie) => ({
  v: fc.oneof(
    { arbitrary: scalar, weight: 8 },
    { arbitrary: fc.array(tie('inArray'), { maxLength: 3 }).map((arr) => ({ arr })), weight: 2 },
    { arbitrary: tie('map'), weight: 1 },
  ),
  inArray: fc.oneof({ arbitrary: scalar, weight: 5 }, { arbitrary: tie('map'), weight: 1 }),
  map: fc
    .dictionary(fc.constantFrom('x', 'y', 'é', 'A'), tie('v'), { maxKeys: 2, depthIdentifier: 'map' })
    .map((map) => ({ map })),
})).v

/** Documents of one case: fields v, w (scalars mostly), m.x, a (an array), some of them absent. */
export type Doc = { id: string; parent: 'top' | 'sub'; data: Record<string, V> }

export const docData: fc.Arbitrary<Record<string, V>> = fc.record(
  {
    v: fc.oneof({ arbitrary: scalar, weight: 6 }, { arbitrary: value, weight: 1 }),
    w: scalar,
    m: fc.record({ x: scalar }, { requiredKeys: [] }).map((map) => ({ map })),
    a: fc.array(scalar, { maxLength: 4 }).map((arr) => ({ arr })),
  },
  { requiredKeys: [] },
)

export const docs: fc.Arbitrary<Doc[]> = fc.uniqueArray(
  fc.record({ id: fc.constantFrom(...IDS), parent: fc.constantFrom('top', 'sub'), data: docData }),
  { minLength: 0, maxLength: 10, selector: (doc) => `${doc.parent}/${doc.id}` },
)

export type FieldName = 'v' | 'w' | 'm.x' | 'a' | '__name__'
export type Op = '<' | '<=' | '>' | '>=' | '==' | '!=' | 'in' | 'not-in' | 'array-contains' | 'array-contains-any'
export type Where = { field: FieldName; op: Op; value: V | V[] } | { and: Where[] } | { or: Where[] }
export type QueryShape = {
  group: boolean
  where?: Where
  orderBy: { field: FieldName; desc: boolean }[]
  start?: { after: boolean; values: V[] }
  end?: { before: boolean; values: V[] }
  limit?: number
  limitToLast?: number
  offset?: number
}

const field = fc.constantFrom<FieldName>('v', 'v', 'v', 'w', 'w', 'm.x', 'a', '__name__')
const nameValue = fc.constantFrom(...IDS).map((str) => ({ str }))
const operandFor = (f: FieldName, op: Op): fc.Arbitrary<V | V[]> => {
  const one = f === '__name__' ? nameValue : scalar
  if (op === 'in' || op === 'not-in' || op === 'array-contains-any')
    return fc.array(one, { minLength: 1, maxLength: 4 })
  return one
}
const ops: Op[] = ['<', '<=', '>', '>=', '==', '!=', 'in', 'not-in', 'array-contains', 'array-contains-any']
const leaf: fc.Arbitrary<Where> = fc
  .tuple(field, fc.constantFrom(...ops))
  .chain(([f, op]) => operandFor(f, op).map((value) => ({ field: f, op, value })))

export const where: fc.Arbitrary<Where> = fc.oneof(
  { arbitrary: leaf, weight: 5 },
  { arbitrary: fc.array(leaf, { minLength: 1, maxLength: 3 }).map((and) => ({ and })), weight: 2 },
  { arbitrary: fc.array(leaf, { minLength: 1, maxLength: 3 }).map((or) => ({ or })), weight: 2 },
  {
    arbitrary: fc
      .array(fc.array(leaf, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 })
      .map((ands) => ({ or: ands.map((and) => ({ and })) })),
    weight: 1,
  },
)

export const queryShape: fc.Arbitrary<QueryShape> = fc
  .record(
    {
      group: fc.boolean(),
      where: where,
      orderBy: fc.uniqueArray(fc.record({ field, desc: fc.boolean() }), {
        maxLength: 2,
        selector: (order) => order.field,
      }),
      limit: fc.integer({ min: 0, max: 6 }),
      limitToLast: fc.integer({ min: 1, max: 6 }),
      offset: fc.integer({ min: 0, max: 3 }),
      startValues: fc.array(scalar, { minLength: 1, maxLength: 2 }),
      startAfter: fc.boolean(),
      endValues: fc.array(scalar, { minLength: 1, maxLength: 2 }),
      endBefore: fc.boolean(),
    },
    { requiredKeys: ['group', 'orderBy'] },
  )
  .map((raw) => {
    const shape: QueryShape = { group: raw.group, orderBy: raw.orderBy }
    if (raw.where) shape.where = raw.where
    // Cursors need as many orderBys as values; a name cursor needs a document id.
    const cursor = (values: V[] | undefined) =>
      values && raw.orderBy.length > 0
        ? values.slice(0, raw.orderBy.length).map((v, i) => (raw.orderBy[i]?.field === '__name__' ? nameOf(v) : v))
        : undefined
    const start = cursor(raw.startValues)
    const end = cursor(raw.endValues)
    if (start) shape.start = { after: raw.startAfter === true, values: start }
    if (end) shape.end = { before: raw.endBefore === true, values: end }
    if (raw.limitToLast !== undefined && raw.orderBy.length > 0) shape.limitToLast = raw.limitToLast
    else if (raw.limit !== undefined) shape.limit = raw.limit
    if (raw.offset !== undefined && shape.limitToLast === undefined) shape.offset = raw.offset
    return shape
  })

const nameOf = (v: V): V =>
  v !== null && typeof v === 'object' && 'str' in v && IDS.includes(v.str) ? v : { str: 'a' }

// ── to firebase-admin ──

export function toSdk(db: Firestore, v: V, root: string): unknown {
  if (v === null || typeof v === 'boolean') return v
  if ('int' in v) return v.int
  if ('dbl' in v) return v.dbl
  if ('str' in v) return v.str
  if ('bytes' in v) return Buffer.from(v.bytes)
  if ('ref' in v) return db.doc(`${root}/${v.ref}`)
  if ('geo' in v) return new GeoPoint(v.geo[0], v.geo[1])
  if ('ts' in v) return new Timestamp(v.ts[0], v.ts[1])
  if ('arr' in v) return v.arr.map((item) => toSdk(db, item, root))
  return Object.fromEntries(Object.entries(v.map).map(([k, item]) => [k, toSdk(db, item, root)]))
}

/** A Firestore value read back, as comparable text-friendly data (-0, NaN and types kept apart). */
export function normalise(value: unknown, root: string): unknown {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value
  if (typeof value === 'number') return Object.is(value, -0) ? 'num:-0' : `num:${value}`
  if (value instanceof Timestamp) {
    // Times the server made (serverTimestamp, update times) differ between any two runs.
    const now = Date.now() / 1000
    return Math.abs(value.seconds - now) < 86_400 ? 'ts:server-time' : `ts:${value.seconds}.${value.nanoseconds}`
  }
  if (value instanceof GeoPoint) return `geo:${value.latitude},${value.longitude}`
  if (value instanceof DocumentReference)
    return `ref:${value.path.startsWith(`${root}/`) ? value.path.slice(root.length + 1) : value.path}`
  if (value instanceof Uint8Array) return `bytes:${Buffer.from(value).toString('hex')}`
  if (Array.isArray(value)) return value.map((item) => normalise(item, root))
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((key) => [key, normalise((value as Record<string, unknown>)[key], root)]),
    )
  return `unknown:${String(value)}`
}

export function fieldPathOf(f: FieldName): string | FieldPath {
  return f === '__name__' ? FieldPath.documentId() : f
}

function filterOf(db: Firestore, w: Where, root: string, group: boolean, groupId: string): Filter {
  if ('and' in w) return Filter.and(...w.and.map((inner) => filterOf(db, inner, root, group, groupId)))
  if ('or' in w) return Filter.or(...w.or.map((inner) => filterOf(db, inner, root, group, groupId)))
  const operand = (v: V): unknown =>
    w.field === '__name__' && v !== null && typeof v === 'object' && 'str' in v
      ? group
        ? db.doc(`${root}/${groupId}/${v.str}`)
        : v.str
      : toSdk(db, v, root)
  const value = Array.isArray(w.value) ? w.value.map(operand) : operand(w.value)
  return Filter.where(fieldPathOf(w.field), w.op, value)
}

/** The query of a case: `root` is the case's own collection, `groupId` its own collection-group id. */
export function buildQuery(db: Firestore, shape: QueryShape, root: string, groupId: string): Query {
  let q: Query = shape.group ? db.collectionGroup(groupId) : db.collection(`${root}/${groupId}`)
  if (shape.where) q = q.where(filterOf(db, shape.where, root, shape.group, groupId))
  for (const order of shape.orderBy) q = q.orderBy(fieldPathOf(order.field), order.desc ? 'desc' : 'asc')
  const cursor = (values: V[]) =>
    values.map((v, i) =>
      shape.orderBy[i]?.field === '__name__' && v !== null && typeof v === 'object' && 'str' in v
        ? shape.group
          ? `${root}/${groupId}/${v.str}`
          : v.str
        : toSdk(db, v, root),
    )
  if (shape.start)
    q = shape.start.after ? q.startAfter(...cursor(shape.start.values)) : q.startAt(...cursor(shape.start.values))
  if (shape.end) q = shape.end.before ? q.endBefore(...cursor(shape.end.values)) : q.endAt(...cursor(shape.end.values))
  if (shape.offset !== undefined) q = q.offset(shape.offset)
  if (shape.limit !== undefined) q = q.limit(shape.limit)
  if (shape.limitToLast !== undefined) q = q.limitToLast(shape.limitToLast)
  return q
}

export const aggregations = {
  count: AggregateField.count(),
  sumV: AggregateField.sum('v'),
  avgV: AggregateField.average('v'),
}

// ── writes ──

export type WriteOp =
  | { kind: 'set'; id: string; data: Record<string, V>; merge: boolean }
  | { kind: 'create'; id: string; data: Record<string, V> }
  | { kind: 'update'; id: string; changes: Record<string, Change> }
  | { kind: 'delete'; id: string; mustExist: boolean }

export type Change =
  | { put: V }
  | { increment: number }
  | { arrayUnion: V[] }
  | { arrayRemove: V[] }
  | { serverTimestamp: true }
  | { deleteField: true }

const change: fc.Arbitrary<Change> = fc.oneof(
  { arbitrary: scalar.map((put) => ({ put })), weight: 3 },
  { arbitrary: fc.constantFrom(1, -2, 0.5, 2 ** 53, Number.NaN).map((increment) => ({ increment })), weight: 2 },
  { arbitrary: fc.array(scalar, { maxLength: 2 }).map((arrayUnion) => ({ arrayUnion })), weight: 1 },
  { arbitrary: fc.array(scalar, { maxLength: 2 }).map((arrayRemove) => ({ arrayRemove })), weight: 1 },
  { arbitrary: fc.constant({ serverTimestamp: true as const }), weight: 1 },
  { arbitrary: fc.constant({ deleteField: true as const }), weight: 1 },
)
const writeId = fc.constantFrom('a', 'b', '😀')
export const writeOp: fc.Arbitrary<WriteOp> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), id: writeId, data: docData, merge: fc.boolean() }),
  fc.record({ kind: fc.constant('create' as const), id: writeId, data: docData }),
  fc.record({
    kind: fc.constant('update' as const),
    id: writeId,
    changes: fc.dictionary(fc.constantFrom('v', 'w', 'm.x', 'a', 'n'), change, { minKeys: 1, maxKeys: 3 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), id: writeId, mustExist: fc.boolean() }),
)

export function changeToSdk(db: Firestore, c: Change, root: string): unknown {
  if ('put' in c) return toSdk(db, c.put, root)
  if ('increment' in c) return FieldValue.increment(c.increment)
  if ('arrayUnion' in c) return FieldValue.arrayUnion(...c.arrayUnion.map((v) => toSdk(db, v, root)))
  if ('arrayRemove' in c) return FieldValue.arrayRemove(...c.arrayRemove.map((v) => toSdk(db, v, root)))
  if ('serverTimestamp' in c) return FieldValue.serverTimestamp()
  return FieldValue.delete()
}

export const dataToSdk = (db: Firestore, data: Record<string, V>, root: string) =>
  Object.fromEntries(Object.entries(data).map(([k, v]) => [k, toSdk(db, v, root)]))
