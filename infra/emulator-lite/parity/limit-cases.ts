/**
 * Commits at and just past Firestore's size limits, as hand-built REST writes (the SDKs check some
 * of these themselves before sending). The parity test sends each to emulator-lite and to Google's
 * emulator and wants the same status and message, but where `declared` says why they differ.
 */
type Value = Record<string, unknown>
type Fields = Record<string, Value>

export type LimitCase = {
  name: string
  /** The writes of one commit; `doc(id)` names a document of the case's own collection. */
  writes(doc: (id: string) => string): Record<string, unknown>[]
  /** A deliberate difference: emulator-lite answers with production's wording or checks what the emulator does not. */
  declared?: string
}

const str = (length: number, unit = 'x'): Value => ({ stringValue: unit.repeat(length) })
const map = (fields: Fields): Value => ({ mapValue: { fields } })
const arr = (...values: Value[]): Value => ({ arrayValue: { values } })
const nested = (depth: number, leaf: Value): Value => (depth === 0 ? leaf : map({ m: nested(depth - 1, leaf) }))
const nestedArrays = (pairs: number): Value => (pairs === 0 ? str(1) : arr(map({ m: nestedArrays(pairs - 1) })))
const set = (name: string, fields: Fields, extra: Record<string, unknown> = {}) => ({
  update: { name, fields },
  ...extra,
})

/**
 * `doc(id)` is `<collection>/<id>` with a collection id of 3 characters, so document `x12345` has a
 * name size of 4 + 7 + 16 = 27 bytes.
 */
const SIZE_ID = 'x12345'
/** The longest string a of `{a, b: 600000 x}` in that document: 1048576 − 27 − 2 − 1 − 2 − 600001 − 32. */
const A_MAX = 1_048_576 - 27 - 2 - 1 - 2 - 600_001 - 32
/** Fields of every type, 89 bytes by the storage-size table (and the emulator's 1 byte for empty ones). */
const typed = (doc: (id: string) => string): Fields => ({
  c: map({ éé: { booleanValue: true } }), // 2 + 6
  d: map({}), // 2 + 1
  e: arr(map({})), // 2 + 1
  f: { geoPointValue: { latitude: 1, longitude: 2 } }, // 2 + 16
  g: { bytesValue: 'AAAA' }, // 2 + 3
  h: { referenceValue: `${doc('x').split('/documents/')[0]}/documents/é/x` }, // 2 + 3 + 2 + 16
  i: arr(), // 2 + 1
  v: map({
    __type__: { stringValue: '__vector__' },
    value: arr({ doubleValue: 1 }, { doubleValue: 2 }, { doubleValue: 3 }),
  }), // 2 + 24
})
const TYPED_SIZE = 89

const DOCUMENT_SIZE = 'document size: emulator-lite answers with production’s message, the emulator with its own'

export const LIMIT_CASES: LimitCase[] = [
  { name: 'a document of exactly 1 MiB', writes: (doc) => [set(doc(SIZE_ID), { a: str(A_MAX), b: str(600_000) })] },
  {
    name: 'a document one byte over 1 MiB',
    writes: (doc) => [set(doc(SIZE_ID), { a: str(A_MAX + 1), b: str(600_000) })],
    declared: DOCUMENT_SIZE,
  },
  {
    name: 'a 1.08 MB document of many fields each within the field limit',
    writes: (doc) => [
      set(doc('many'), Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`f${i}`, str(60_000)]))),
    ],
    declared: DOCUMENT_SIZE,
  },
  {
    name: 'an array transform growing a document past 1 MiB',
    writes: (doc) => [
      set(doc('grow'), { a: str(1_000_000) }),
      set(
        doc('grow'),
        {},
        {
          updateMask: { fieldPaths: [] },
          updateTransforms: [{ fieldPath: 'b', appendMissingElements: { values: [str(60_000)] } }],
        },
      ),
    ],
    declared: DOCUMENT_SIZE,
  },
  {
    name: 'a masked update growing a document past 1 MiB',
    writes: (doc) => [
      set(doc('mask'), { a: str(1_000_000) }),
      set(doc('mask'), { b: str(60_000) }, { updateMask: { fieldPaths: ['b'] } }),
    ],
    declared: DOCUMENT_SIZE,
  },
  {
    name: 'a document of exactly 1 MiB with fields of every type',
    writes: (doc) => [set(doc(SIZE_ID), { a: str(A_MAX - TYPED_SIZE), b: str(600_000), ...typed(doc) })],
  },
  {
    name: 'a document one byte over 1 MiB with fields of every type',
    writes: (doc) => [set(doc(SIZE_ID), { a: str(A_MAX - TYPED_SIZE + 1), b: str(600_000), ...typed(doc) })],
    declared: DOCUMENT_SIZE,
  },
  { name: 'a string of 1048487 bytes', writes: (doc) => [set(doc('s1'), { f: str(1_048_487) })] },
  { name: 'a string of 1048488 bytes', writes: (doc) => [set(doc('s2'), { f: str(1_048_488) })] },
  {
    name: 'a string of 1048488 UTF-8 bytes (2-byte characters)',
    writes: (doc) => [set(doc('s3'), { f: str(524_244, 'é') })],
  },
  {
    name: 'bytes of 1048488',
    writes: (doc) => [set(doc('b1'), { f: { bytesValue: Buffer.alloc(1_048_488).toString('base64') } })],
  },
  { name: 'a long string in an array', writes: (doc) => [set(doc('s4'), { a: arr(str(1_048_488)) })] },
  { name: 'a long string in a map', writes: (doc) => [set(doc('s5'), { m: map({ f: str(1_048_488) }) })] },
  {
    name: 'a long string in a map in an array',
    writes: (doc) => [set(doc('s6'), { a: arr(map({ s: str(1_048_488) })) })],
  },
  { name: 'maps nested 20 deep', writes: (doc) => [set(doc('n1'), { f: nested(20, str(1)) })] },
  { name: 'maps nested 21 deep', writes: (doc) => [set(doc('n2'), { f: nested(21, str(1)) })] },
  { name: 'arrays and maps nested 20 deep', writes: (doc) => [set(doc('n3'), { f: nestedArrays(10) })] },
  { name: 'arrays and maps nested 22 deep', writes: (doc) => [set(doc('n4'), { f: nestedArrays(11) })] },
  { name: 'an array 21 deep', writes: (doc) => [set(doc('n5'), { f: nested(20, arr(str(1))) })] },
  { name: 'an empty array 21 deep', writes: (doc) => [set(doc('n6'), { f: nested(20, arr()) })] },
  { name: 'an empty map 21 deep', writes: (doc) => [set(doc('n7'), { f: nested(20, map({})) })] },
  { name: 'a field name of 1500 bytes', writes: (doc) => [set(doc('p1'), { ['n'.repeat(1500)]: str(1) })] },
  { name: 'a field name of 1501 bytes', writes: (doc) => [set(doc('p2'), { ['é'.repeat(751)]: str(1) })] },
  {
    name: 'a nested field path of 1500 bytes',
    writes: (doc) => [set(doc('p3'), { a: map({ ['m'.repeat(1498)]: str(1) }) })],
  },
  {
    name: 'a nested field path of 1501 bytes',
    writes: (doc) => [set(doc('p4'), { a: map({ ['m'.repeat(1499)]: str(1) }) })],
  },
  {
    name: 'an update mask path of 1501 bytes',
    writes: (doc) => [set(doc('p5'), {}, { updateMask: { fieldPaths: [`a.${'p'.repeat(1499)}`] } })],
  },
  { name: 'an empty field name', writes: (doc) => [set(doc('r1'), { '': str(1) })] },
  { name: 'a reserved field name', writes: (doc) => [set(doc('r2'), { __x__: str(1) })] },
  { name: 'a reserved key in a map', writes: (doc) => [set(doc('r3'), { m: map({ __x__: str(1) }) })] },
  { name: 'an array in an array', writes: (doc) => [set(doc('r4'), { m: map({ x: arr(arr()) }) })] },
  { name: 'a document id of 1500 bytes', writes: (doc) => [set(doc('i'.repeat(1500)), {})] },
  { name: 'a document id of 1501 bytes', writes: (doc) => [set(doc('i'.repeat(1501)), {})] },
  {
    name: 'a collection id of 1501 bytes',
    writes: (doc) => [set(`${doc('x').split('/documents/')[0]}/documents/${'c'.repeat(1501)}/x`, {})],
  },
  {
    name: 'the first bad field in the request’s order is the one reported',
    writes: (doc) => [set(doc('o1'), { z: str(1_048_488), a: nested(21, str(1)) })],
  },
  {
    name: 'a bad second write fails the whole commit',
    writes: (doc) => [set(doc('o2'), { a: str(1) }), set(doc('o3'), { z: str(1_048_488) })],
  },
  {
    name: 'a document name over 6 KiB',
    writes: (doc) => [
      set(
        `${doc('x').split('/documents/')[0]}/documents/${['i', 'j', 'k', 'l'].map((c) => `c/${c.repeat(1500)}`).join('/')}/v/${'m'.repeat(200)}`,
        { a: str(1) },
      ),
    ],
    declared: 'document name size: production refuses names over 6 KiB; the official emulator does not check',
  },
  {
    name: '501 writes in one commit',
    // Production dropped the 500-writes limit in March 2023; the official emulator has none either.
    writes: (doc) => Array.from({ length: 501 }, (_, i) => set(doc(`w${i}`), { a: str(1) })),
  },
]

// ── Query limits: comparison values and disjunctions ──

const list = (n: number, same = false): Value => ({
  arrayValue: { values: Array.from({ length: n }, (_, i) => ({ integerValue: same ? '1' : String(i) })) },
})
const where = (op: string, value: Value, field = 'a'): Value => ({
  fieldFilter: { field: { fieldPath: field }, op, value },
})
const all = (...filters: Value[]): Value => ({ compositeFilter: { op: 'AND', filters } })
const any = (...filters: Value[]): Value => ({ compositeFilter: { op: 'OR', filters } })
const equalities = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => where('EQUAL', { integerValue: String(i) }, `${prefix}${i}`))

/** `where` filters of a runQuery; each the official emulator answers as emulator-lite must. */
export const QUERY_LIMIT_CASES: { name: string; where: Value }[] = [
  { name: 'in with 30 values', where: where('IN', list(30)) },
  { name: 'in with 31 values', where: where('IN', list(31)) },
  { name: 'in with 31 equal values', where: where('IN', list(31, true)) },
  { name: 'array-contains-any with 31 values', where: where('ARRAY_CONTAINS_ANY', list(31)) },
  { name: 'not-in with 10 values', where: where('NOT_IN', list(10)) },
  { name: 'not-in with 11 values', where: where('NOT_IN', list(11)) },
  { name: 'or of 30', where: any(...equalities(30, 'p')) },
  { name: 'or of 31', where: any(...equalities(31, 'p')) },
  { name: 'in 2 and in 16 (32 disjunctions)', where: all(where('IN', list(2), 'x'), where('IN', list(16), 'y')) },
  { name: 'in 16 of one value and in 2', where: all(where('IN', list(16, true), 'x'), where('IN', list(2), 'y')) },
  { name: 'in 30 and an equality', where: all(where('IN', list(30), 'x'), where('EQUAL', { integerValue: '1' }, 'y')) },
  { name: 'or of 2 and or of 30 (60)', where: all(any(...equalities(2, 'p')), any(...equalities(30, 'q'))) },
  {
    name: 'or of 3 and or of 21 (63: normalising gives up)',
    where: all(any(...equalities(3, 'p')), any(...equalities(21, 'q'))),
  },
  {
    name: 'two ands of 30 and one equality (61)',
    where: any(
      all(where('IN', list(5), 'x'), where('IN', list(6), 'y')),
      all(where('IN', list(5), 'u'), where('IN', list(6), 'v')),
      where('EQUAL', { integerValue: '1' }, 'z'),
    ),
  },
  { name: 'in with 31 values inside an or of 40', where: any(where('IN', list(31), 'x'), ...equalities(40, 'p')) },
  { name: 'not-in of 11 beside an or', where: any(where('NOT_IN', list(11), 'x'), ...equalities(40, 'p')) },
]
