import { afterAll, expect, test } from 'vitest'
import { Store } from '../store/store.ts'
import { runQuery } from './query.ts'
import { applyWrites } from './writes.ts'

// Regressions for differences the parity differential (parity/) found against Google's Firestore
// emulator: each is what the official emulator answers.
const store = new Store({ inMemory: true })
const db = { project: 'demo-query', database: '(default)' }
const root = `projects/${db.project}/databases/(default)/documents`
afterAll(() => store.close())

applyWrites(store, db, [
  { update: { name: `${root}/c/a`, fields: { v: { integerValue: '2' } } } },
  { update: { name: `${root}/c/b`, fields: { v: { stringValue: 'b' } } } },
  { update: { name: `${root}/c/n`, fields: { v: { nullValue: null } } } },
])

const field = (fieldPath: string, op: string, value: unknown) => ({
  fieldFilter: { field: { fieldPath }, op, value },
})
const ids = (where: unknown, extra: Record<string, unknown> = {}) =>
  runQuery(store, db, '', { from: [{ collectionId: 'c' }], where, ...extra }).map((doc) => doc.path)
const list = (...values: unknown[]) => ({ arrayValue: { values } })

test("a null in an 'in' list matches no null value", () => {
  const where = field('v', 'IN', list({ integerValue: '2' }, { stringValue: 'b' }, { nullValue: null }))
  expect(ids(where)).toEqual(['c/a', 'c/b'])
})

test('a null operand compares with nothing, and a null in an array-contains-any list matches nothing (IS_NULL finds nulls)', () => {
  applyWrites(store, db, [
    { update: { name: `${root}/arrays/e`, fields: { a: list({ integerValue: '43' }) } } },
    { update: { name: `${root}/arrays/h`, fields: { a: list({ nullValue: null }) } } },
    { update: { name: `${root}/arrays/z`, fields: { a: { nullValue: null } } } },
  ])
  const arrays = (where: unknown) =>
    runQuery(store, db, '', { from: [{ collectionId: 'arrays' }], where }).map((doc) => doc.path)
  const none = { nullValue: null }
  for (const op of ['EQUAL', 'NOT_EQUAL', 'GREATER_THAN_OR_EQUAL', 'LESS_THAN', 'ARRAY_CONTAINS'])
    expect(arrays(field('a', op, none)), op).toEqual([])
  expect(arrays(field('a', 'ARRAY_CONTAINS_ANY', list(none)))).toEqual([])
  expect(arrays(field('a', 'ARRAY_CONTAINS_ANY', list({ integerValue: '43' }, none)))).toEqual(['arrays/e'])
  expect(arrays({ unaryFilter: { field: { fieldPath: 'a' }, op: 'IS_NULL' } })).toEqual(['arrays/z'])
  expect(ids(field('v', 'EQUAL', none))).toEqual([])
})

test('query shapes the official emulator refuses are refused with INVALID_ARGUMENT', () => {
  const and = (...filters: unknown[]) => ({ compositeFilter: { op: 'AND', filters } })
  const or = (...filters: unknown[]) => ({ compositeFilter: { op: 'OR', filters } })
  const notNaN = { unaryFilter: { field: { fieldPath: 'v' }, op: 'IS_NOT_NAN' } }
  const refused = [
    [and(notNaN, field('v', 'NOT_IN', list({ integerValue: '1' }))), /Only a single 'NOT_EQUAL'/],
    [
      or(field('v', 'NOT_IN', list({ integerValue: '1' })), field('v', 'LESS_THAN', { integerValue: '0' })),
      /'NOT_IN' cannot/,
    ],
    [
      and(field('v', 'NOT_IN', list({ integerValue: '1' })), field('w', 'IN', list({ integerValue: '1' }))),
      /'NOT_IN' cannot/,
    ],
    [
      and(
        field('a', 'ARRAY_CONTAINS_ANY', list({ integerValue: '1' })),
        field('a', 'ARRAY_CONTAINS', { integerValue: '2' }),
      ),
      /maximum of 1 'ARRAY_CONTAINS'/,
    ],
    [
      and(
        field('__name__', 'EQUAL', { referenceValue: `${root}/c/a` }),
        field('v', 'LESS_THAN', { integerValue: '3' }),
      ),
      /Equality on key/,
    ],
  ] as const
  for (const [where, message] of refused) expect(() => ids(where), JSON.stringify(where)).toThrow(message)
  // An OR of array-contains in different ways is fine, and so is one negation.
  expect(() =>
    ids(or(field('a', 'ARRAY_CONTAINS', { integerValue: '1' }), field('a', 'ARRAY_CONTAINS', { integerValue: '2' }))),
  ).not.toThrow()
  expect(() => ids(notNaN)).not.toThrow()
})

test('no order may follow __name__, explicit or implied by an inequality', () => {
  const byName = { field: { fieldPath: '__name__' }, direction: 'ASCENDING' }
  const byV = { field: { fieldPath: 'v' }, direction: 'ASCENDING' }
  expect(() => ids(undefined, { orderBy: [byName, byV] })).toThrow(/after the key/)
  expect(() => ids(field('v', 'LESS_THAN', { integerValue: '3' }), { orderBy: [byName] })).toThrow(/after the key/)
  expect(ids(field('v', 'LESS_THAN', { integerValue: '3' }), { orderBy: [byV, byName] })).toEqual(['c/a'])
})

test('two writes to one document in one commit that cannot both hold are refused before the data is read', () => {
  const name = `${root}/w/x`
  const set = { update: { name, fields: {} } }
  const create = { ...set, currentDocument: { exists: false } }
  const update = { ...set, updateMask: { fieldPaths: [] }, currentDocument: { exists: true } }
  const remove = { delete: name }
  const removeExisting = { delete: name, currentDocument: { exists: true } }
  expect(() => applyWrites(store, db, [set, create])).toThrow(
    'Cannot upsert then insert an entity in the same request.',
  )
  expect(() => applyWrites(store, db, [create, create])).toThrow('Cannot insert then insert')
  expect(() => applyWrites(store, db, [update, create])).toThrow('Cannot update then insert')
  expect(() => applyWrites(store, db, [remove, update])).toThrow('Cannot delete then update')
  expect(() => applyWrites(store, db, [remove, removeExisting])).toThrow('Cannot delete then delete')
  expect(() => applyWrites(store, db, [remove, create, set, remove, remove])).not.toThrow()
})

test("an aggregation's sum and average fields order the documents before the limit, and are required", () => {
  // Name order: B (no v), a (1), c (5), n ('x'); by v: a, c, n.
  applyWrites(store, db, [
    { update: { name: `${root}/g/c`, fields: { v: { integerValue: '5' } } } },
    { update: { name: `${root}/g/a`, fields: { v: { integerValue: '1' } } } },
    { update: { name: `${root}/g/B`, fields: {} } },
    { update: { name: `${root}/g/n`, fields: { v: { stringValue: 'x' } } } },
  ])
  const query = (limit: number) => ({ from: [{ collectionId: 'g' }], limit })
  expect(runQuery(store, db, '', query(1)).map((doc) => doc.path)).toEqual(['g/B'])
  const aggregated = (limit: number) =>
    runQuery(store, db, '', query(limit), undefined, { mustHave: [['v']] }).map((doc) => doc.path)
  expect(aggregated(1)).toEqual(['g/a'])
  expect(aggregated(9)).toEqual(['g/a', 'g/c', 'g/n'])
})

test('equality with a string matches exactly the equal strings, never another type', () => {
  applyWrites(store, db, [
    { update: { name: `${root}/s/text`, fields: { v: { stringValue: '2' } } } },
    { update: { name: `${root}/s/int`, fields: { v: { integerValue: '2' } } } },
    { update: { name: `${root}/s/bytes`, fields: { v: { bytesValue: Buffer.from('2').toString('base64') } } } },
    { update: { name: `${root}/s/other`, fields: { v: { stringValue: '2 ' } } } },
    { update: { name: `${root}/s/astral`, fields: { v: { stringValue: '\u{1F600}' } } } },
    { update: { name: `${root}/s/none`, fields: {} } },
  ])
  const inS = (where: unknown) =>
    runQuery(store, db, '', { from: [{ collectionId: 's' }], where }).map((doc) => doc.path)
  expect(inS(field('v', 'EQUAL', { stringValue: '2' }))).toEqual(['s/text'])
  expect(inS(field('v', 'EQUAL', { integerValue: '2' }))).toEqual(['s/int'])
  expect(inS(field('v', 'EQUAL', { stringValue: '\u{1F600}' }))).toEqual(['s/astral'])
})

test('a collection-group equality on a string stays right through updates, deletes, parents and a failed commit', () => {
  const doc = (path: string, fields: Record<string, unknown>) => ({ update: { name: `${root}/${path}`, fields } })
  const at = (location: string) => ({ locationId: { stringValue: location }, day: { stringValue: '2026-11-25' } })
  applyWrites(store, db, [
    doc('persons/p1/visits/v1', at('A')),
    doc('persons/p1/visits/v2', at('B')),
    doc('persons/p2/visits/v3', at('A')),
    doc('persons/p2/visits/v4', { locationId: { integerValue: '1' } }),
    doc('other/x/visits/v5', at('A')),
  ])
  const group = (location: string, parent = '', day = '2026-11-25') =>
    runQuery(store, db, parent, {
      from: [{ collectionId: 'visits', allDescendants: true }],
      where: {
        compositeFilter: {
          op: 'AND',
          filters: [
            field('locationId', 'EQUAL', { stringValue: location }),
            field('day', 'EQUAL', { stringValue: day }),
          ],
        },
      },
    }).map((found) => found.path)
  expect(group('A')).toEqual(['other/x/visits/v5', 'persons/p1/visits/v1', 'persons/p2/visits/v3'])
  expect(group('A', 'persons/p2')).toEqual(['persons/p2/visits/v3'])
  expect(group('A', '', '2026-11-24')).toEqual([])
  applyWrites(store, db, [doc('persons/p1/visits/v1', at('B')), { delete: `${root}/persons/p2/visits/v3` }])
  expect(group('A')).toEqual(['other/x/visits/v5'])
  expect(group('B')).toEqual(['persons/p1/visits/v1', 'persons/p1/visits/v2'])
  // A commit that fails on its last write leaves nothing of its first (the index included).
  expect(() =>
    applyWrites(store, db, [
      doc('persons/p2/visits/v6', at('C')),
      { ...doc('persons/p1/visits/v2', at('C')), currentDocument: { exists: false } },
    ]),
  ).toThrow()
  expect(group('C')).toEqual([])
  applyWrites(store, db, [doc('persons/p2/visits/v6', at('C'))])
  expect(group('C')).toEqual(['persons/p2/visits/v6'])
})
