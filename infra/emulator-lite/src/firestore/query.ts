import { ApiError, invalid } from '../http/errors.ts'
import type { Store, StoredDocument } from '../store/store.ts'
import { checkQueryFilterLimits } from './limits.ts'
import { assertNotReserved, type DatabaseRef, getField, parseFieldPath, rootOf } from './paths.ts'
import {
  arrayValues,
  compareReferences,
  compareStrings,
  compareValues,
  isNaNValue,
  isNull,
  type Value,
  validateValue,
  valuesEqual,
} from './values.ts'

// Admin sends enums as integers, Lite as names: normalise to names.
export const FIELD_OPS = [
  '',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL',
  'EQUAL',
  'NOT_EQUAL',
  'ARRAY_CONTAINS',
  'IN',
  'ARRAY_CONTAINS_ANY',
  'NOT_IN',
]
export const UNARY_OPS = ['', '', 'IS_NAN', 'IS_NULL', 'IS_NOT_NAN', 'IS_NOT_NULL']
export const COMPOSITE_OPS = ['', 'AND', 'OR']
export const DIRECTIONS = ['', 'ASCENDING', 'DESCENDING']

function enumName(value: unknown, names: string[], what: string): string {
  const name = typeof value === 'number' ? names[value] : value
  if (typeof name !== 'string' || name === '' || !names.includes(name))
    throw invalid(`Invalid ${what}: ${String(value)}`)
  return name
}

type Order = { path: string[]; isName: boolean; descending: boolean }
type Cursor = { values: Value[]; before: boolean }
export type StructuredQuery = {
  from?: { collectionId?: string; allDescendants?: boolean }[]
  where?: unknown
  orderBy?: { field?: { fieldPath?: string }; direction?: unknown }[]
  startAt?: Cursor
  endAt?: Cursor
  offset?: number
  limit?: number | { value?: number }
  select?: { fields?: { fieldPath?: string }[] }
}

const NAME_FIELD = '__name__'

/** One key per field, whatever the quoting of its path. */
const pathKey = (segments: readonly string[]) => JSON.stringify(segments)

/** Field-path order: segment by segment (UTF-8 bytes, as strings), a path before the longer ones it starts. */
function compareFieldPaths(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareStrings(a[i] as string, b[i] as string)
    if (order !== 0) return order
  }
  return a.length - b.length
}

/** Reads a field (or `__name__`) of a document; the path is parsed once, not per document. */
function fieldReader(db: DatabaseRef, fieldPath: string): (doc: StoredDocument) => Value | undefined {
  if (fieldPath === NAME_FIELD) return (doc) => ({ referenceValue: `${rootOf(db)}/${doc.path}` })
  const segments = parseFieldPath(fieldPath)
  return (doc) => getField(doc.fields, segments)
}

type Predicate = (doc: StoredDocument) => boolean

function compileFilter(db: DatabaseRef, filter: unknown, inequalities: Set<string>): Predicate {
  if (typeof filter !== 'object' || filter === null) throw invalid('Invalid filter')
  const f = filter as Record<string, Record<string, unknown>>
  if (f.compositeFilter) {
    const op = enumName(f.compositeFilter.op, COMPOSITE_OPS, 'composite operator')
    const filters = f.compositeFilter.filters
    if (!Array.isArray(filters)) throw invalid('compositeFilter.filters must be an array')
    const parts = filters.map((inner) => compileFilter(db, inner, inequalities))
    return op === 'AND' ? (doc) => parts.every((part) => part(doc)) : (doc) => parts.some((part) => part(doc))
  }
  if (f.unaryFilter) {
    const op = enumName(f.unaryFilter.op, UNARY_OPS, 'unary operator')
    const fieldPath = (f.unaryFilter.field as { fieldPath?: string } | undefined)?.fieldPath ?? ''
    const fieldValue = fieldReader(db, fieldPath)
    if (op === 'IS_NOT_NAN' || op === 'IS_NOT_NULL') inequalities.add(fieldPath)
    return (doc) => {
      const value = fieldValue(doc)
      if (value === undefined) return false
      if (op === 'IS_NULL') return isNull(value)
      if (op === 'IS_NAN') return isNaNValue(value)
      if (op === 'IS_NOT_NULL') return !isNull(value)
      return !isNaNValue(value) && !isNull(value)
    }
  }
  if (f.fieldFilter) {
    const op = enumName(f.fieldFilter.op, FIELD_OPS, 'field operator')
    const fieldPath = (f.fieldFilter.field as { fieldPath?: string } | undefined)?.fieldPath ?? ''
    const fieldValue = fieldReader(db, fieldPath)
    const operand = f.fieldFilter.value as Value
    validateValue(operand)
    if (fieldPath === NAME_FIELD) {
      for (const item of 'arrayValue' in operand ? arrayValues(operand) : [operand]) assertNoReservedIn(db, item)
    }
    if (
      ['LESS_THAN', 'LESS_THAN_OR_EQUAL', 'GREATER_THAN', 'GREATER_THAN_OR_EQUAL', 'NOT_EQUAL', 'NOT_IN'].includes(op)
    ) {
      inequalities.add(fieldPath)
    }
    const list = ['IN', 'NOT_IN', 'ARRAY_CONTAINS_ANY'].includes(op) ? arrayValues(operand) : []
    if (list.length === 0 && ['IN', 'NOT_IN', 'ARRAY_CONTAINS_ANY'].includes(op) && !('arrayValue' in operand)) {
      throw invalid(`${op} needs an array value`)
    }
    const listHasNull = list.some(isNull)
    // Equality with a string (locationId, day: most of the app's queries) is equality of the two
    // strings; the general comparison ranks types first. This runs per document on every query.
    if (op === 'EQUAL' && typeof operand.stringValue === 'string') {
      const text = operand.stringValue
      return (doc) => fieldValue(doc)?.stringValue === text
    }
    // A null operand compares with nothing (`== null`, `!= null`, `>= null`, `array-contains null`):
    // nulls are found with IS_NULL, which is what the SDKs send for `== null` (the official emulator).
    if (isNull(operand)) return () => false
    // Nor does a null in an array-contains-any list: the other values still match.
    const anyOf = op === 'ARRAY_CONTAINS_ANY' ? list.filter((item) => !isNull(item)) : list
    return (doc) => {
      const value = fieldValue(doc)
      if (value === undefined) return false
      switch (op) {
        case 'EQUAL':
          return valuesEqual(value, operand)
        case 'NOT_EQUAL':
          return !isNull(value) && !valuesEqual(value, operand)
        case 'IN':
          // A null in the list matches nothing, as in production (`in [2, 'b', null]` skips null values).
          return !isNull(value) && list.some((item) => valuesEqual(value, item))
        case 'NOT_IN':
          // A null in the list makes the filter match nothing, as the backend does (nothing is "not null").
          return !listHasNull && !isNull(value) && !list.some((item) => valuesEqual(value, item))
        case 'ARRAY_CONTAINS':
          return 'arrayValue' in value && arrayValues(value).some((item) => valuesEqual(item, operand))
        case 'ARRAY_CONTAINS_ANY':
          return 'arrayValue' in value && arrayValues(value).some((item) => anyOf.some((x) => valuesEqual(item, x)))
        default: {
          // Range filters only match values of the operand's type (numbers with numbers, and so on).
          if (isNaNValue(value) || isNaNValue(operand) || !sameTypeClass(value, operand)) return false
          const order = compareValues(value, operand)
          if (op === 'LESS_THAN') return order < 0
          if (op === 'LESS_THAN_OR_EQUAL') return order <= 0
          if (op === 'GREATER_THAN') return order > 0
          return order >= 0
        }
      }
    }
  }
  throw invalid('A filter needs fieldFilter, unaryFilter or compositeFilter')
}

/** The top-level equalities with a string (the filter itself, or an AND's filters); none if unsure. */
function stringEqualities(where: unknown): { fieldPath: string[]; value: string }[] {
  if (typeof where !== 'object' || where === null) return []
  const f = where as { fieldFilter?: unknown; compositeFilter?: { op?: unknown; filters?: unknown } }
  const conjuncts =
    f.compositeFilter !== undefined
      ? (f.compositeFilter.op === 'AND' || f.compositeFilter.op === 1) && Array.isArray(f.compositeFilter.filters)
        ? (f.compositeFilter.filters as unknown[])
        : []
      : [where]
  const found: { fieldPath: string[]; value: string }[] = []
  for (const conjunct of conjuncts) {
    const filter = (conjunct as { fieldFilter?: Record<string, unknown> } | null)?.fieldFilter
    const value = (filter?.value as { stringValue?: unknown } | undefined)?.stringValue
    const fieldPath = (filter?.field as { fieldPath?: unknown } | undefined)?.fieldPath
    if ((filter?.op !== 'EQUAL' && filter?.op !== 5) || typeof value !== 'string') continue
    if (typeof fieldPath !== 'string' || fieldPath === NAME_FIELD) continue
    try {
      found.push({ fieldPath: parseFieldPath(fieldPath), value })
    } catch {
      // An invalid path: the filter's own compilation refuses it, with its own message.
      return []
    }
  }
  return found
}

function hasKeyEquality(filter: unknown): boolean {
  if (typeof filter !== 'object' || filter === null) return false
  const f = filter as Record<string, Record<string, unknown> | undefined>
  const inner = f.compositeFilter?.filters
  if (Array.isArray(inner)) return inner.some(hasKeyEquality)
  const op = f.fieldFilter?.op
  const field = (f.fieldFilter?.field as { fieldPath?: string } | undefined)?.fieldPath
  return field === NAME_FIELD && (op === 'EQUAL' || op === 5 || op === 'IN' || op === 8)
}

/** The most `array-contains`/`array-contains-any` filters in one way (disjunct) of a filter. */
function arrayContainsPerWay(filter: unknown): number {
  if (typeof filter !== 'object' || filter === null) return 0
  const f = filter as Record<string, Record<string, unknown> | undefined>
  const inner = f.compositeFilter?.filters
  if (Array.isArray(inner)) {
    const counts = inner.map(arrayContainsPerWay)
    const op = f.compositeFilter?.op
    return op === 'OR' || op === 2 ? Math.max(0, ...counts) : counts.reduce((sum, n) => sum + n, 0)
  }
  const op = f.fieldFilter?.op
  const name = typeof op === 'number' ? FIELD_OPS[op] : op
  return name === 'ARRAY_CONTAINS' || name === 'ARRAY_CONTAINS_ANY' ? 1 : 0
}

/** How often each operator (and `OR`) occurs in a filter: production limits some combinations (the differential). */
function operatorsIn(filter: unknown, counts = new Map<string, number>()): Map<string, number> {
  if (typeof filter !== 'object' || filter === null) return counts
  const f = filter as Record<string, Record<string, unknown> | undefined>
  const add = (name: unknown) => counts.set(String(name), (counts.get(String(name)) ?? 0) + 1)
  const inner = f.compositeFilter?.filters
  if (Array.isArray(inner)) {
    const op = f.compositeFilter?.op
    // One filter in an OR is that filter alone.
    if ((op === 'OR' || op === 2) && inner.length > 1) add('OR')
    for (const item of inner) operatorsIn(item, counts)
    return counts
  }
  const op = f.fieldFilter?.op ?? f.unaryFilter?.op
  add(typeof op === 'number' ? (f.fieldFilter ? FIELD_OPS[op] : UNARY_OPS[op]) : op)
  return counts
}

/** A `__name__` operand naming a document with a reserved id is refused, as production refuses the path. */
function assertNoReservedIn(db: DatabaseRef, value: Value): void {
  const reference = value.referenceValue
  const root = `${rootOf(db)}/`
  if (typeof reference !== 'string' || !reference.startsWith(root)) return
  for (const segment of reference.slice(root.length).split('/')) assertNotReserved(segment)
}

function sameTypeClass(a: Value, b: Value): boolean {
  const cls = (v: Value) => ('integerValue' in v || 'doubleValue' in v ? 'number' : Object.keys(v)[0])
  return cls(a) === cls(b)
}

export type QueryOptions = {
  /** Only the parity harness's own test passes this (to plant a difference it must catch). */
  compareValues?: (a: Value, b: Value) => number
  /** An aggregation's summed and averaged fields: ordered by (after the query's own orders), so required. */
  mustHave?: string[][]
}

function compareBy(orders: Order[], compare = compareValues) {
  return (a: StoredDocument, b: StoredDocument): number => {
    for (const order of orders) {
      const result = order.isName
        ? compareReferences(a.path, b.path)
        : compare(getField(a.fields, order.path) as Value, getField(b.fields, order.path) as Value)
      if (result !== 0) return order.descending ? -result : result
    }
    return 0
  }
}

function cursorPosition(db: DatabaseRef, doc: StoredDocument, orders: Order[], cursor: Cursor): number {
  for (let i = 0; i < Math.min(cursor.values.length, orders.length); i++) {
    const order = orders[i] as Order
    const cursorValue = cursor.values[i] as Value
    let result: number
    if (order.isName) {
      const reference = String(cursorValue.referenceValue ?? '')
      const root = `${rootOf(db)}/`
      result = compareReferences(doc.path, reference.startsWith(root) ? reference.slice(root.length) : reference)
    } else result = compareValues(getField(doc.fields, order.path) as Value, cursorValue)
    if (result !== 0) return order.descending ? -result : result
  }
  return 0
}

function parseCursor(raw: unknown): Cursor | undefined {
  if (raw === undefined) return undefined
  const cursor = raw as Cursor
  if (typeof raw !== 'object' || raw === null || !Array.isArray(cursor.values)) throw invalid('Invalid cursor')
  for (const value of cursor.values) validateValue(value)
  return { values: cursor.values, before: cursor.before === true }
}

function parseLimit(raw: StructuredQuery['limit']): number | undefined {
  if (raw === undefined || raw === null) return undefined
  const limit = typeof raw === 'object' ? raw.value : raw
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) throw invalid('Invalid limit')
  return limit
}

/**
 * Runs a structured query under `parent` ('' for the root), returning documents in result order;
 * with `readTime` (nanoseconds), over the documents as they were then.
 */
export function runQuery(
  store: Store,
  db: DatabaseRef,
  parent: string,
  rawQuery: unknown,
  readTime?: bigint,
  options: QueryOptions = {},
): StoredDocument[] {
  if (typeof rawQuery !== 'object' || rawQuery === null) throw invalid('structuredQuery is required')
  const query = rawQuery as StructuredQuery
  if ('findNearest' in query)
    throw new ApiError('UNIMPLEMENTED', 'findNearest (vector search) is not supported by emulator-lite')
  const from = query.from ?? []
  if (!Array.isArray(from) || from.length !== 1) throw invalid('A query needs exactly one collection selector')
  const selector = from[0]
  if (typeof selector !== 'object' || selector === null) throw invalid('Invalid collection selector')
  if (selector.collectionId !== undefined && typeof selector.collectionId !== 'string')
    throw invalid('Invalid collectionId')
  const allDescendants = selector.allDescendants === true
  if (!allDescendants && !selector.collectionId) throw invalid('collectionId is required')
  if (selector.collectionId) assertNotReserved(selector.collectionId)
  const scope = { parent, collectionId: selector.collectionId, allDescendants }
  // A collection group with an equality on a string field reads only the documents with that value
  // (an index of the store); the whole filter below still decides.
  const equalities =
    readTime === undefined && allDescendants && selector.collectionId ? stringEqualities(query.where) : []
  let docs =
    equalities.length > 0 && selector.collectionId
      ? store.listDocumentsWithString(
          db.project,
          db.database,
          { parent, collectionId: selector.collectionId },
          equalities,
        )
      : readTime === undefined
        ? store.listDocuments(db.project, db.database, scope)
        : store.listDocumentsAt(db.project, db.database, scope, readTime)

  const inequalities = new Set<string>()
  if (query.where !== undefined) {
    const used = operatorsIn(query.where)
    if (['NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', 'IS_NOT_NULL'].reduce((sum, op) => sum + (used.get(op) ?? 0), 0) > 1)
      throw invalid("Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query.")
    if (arrayContainsPerWay(query.where) > 1)
      throw invalid("A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction.")
    if (used.has('NOT_IN') && (used.has('IN') || used.has('ARRAY_CONTAINS_ANY') || used.has('OR')))
      throw invalid("'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'.")
    checkQueryFilterLimits(query.where)
    const predicate = compileFilter(db, query.where, inequalities)
    const otherInequality = [...inequalities].some((field) => field !== NAME_FIELD)
    if (otherInequality && !inequalities.has(NAME_FIELD) && hasKeyEquality(query.where))
      throw invalid(
        'Equality on key is not allowed if there are other inequality fields and key does not appear in inequalities.',
      )
    docs = docs.filter(predicate)
  }

  if (query.orderBy !== undefined && !Array.isArray(query.orderBy)) throw invalid('orderBy must be an array')
  const orders: Order[] = (query.orderBy ?? []).map((order) => {
    if (typeof order !== 'object' || order === null) throw invalid('Invalid orderBy')
    const fieldPath = order.field?.fieldPath ?? ''
    const isName = fieldPath === NAME_FIELD
    return {
      path: isName ? [] : parseFieldPath(fieldPath),
      isName,
      descending: enumName(order.direction ?? 'ASCENDING', DIRECTIONS, 'direction') === 'DESCENDING',
    }
  })
  // Fields compared by their segments: `a.b`, `` `a`.b `` and `` `a.b` `` (one segment) are told apart rightly.
  const inequalityPaths = new Map<string, string[]>()
  for (const field of inequalities) {
    if (field === NAME_FIELD) continue
    const path = parseFieldPath(field)
    inequalityPaths.set(pathKey(path), path)
  }
  const ordered = new Set(orders.filter((order) => !order.isName).map((order) => pathKey(order.path)))
  // Production refuses any order after the document name, explicit or implied by an inequality.
  const nameAt = orders.findIndex((order) => order.isName)
  const pendingInequality = [...inequalityPaths.keys()].some((key) => !ordered.has(key))
  if (nameAt !== -1 && (nameAt < orders.length - 1 || pendingInequality))
    throw invalid('order by clause cannot contain more fields after the key')
  // Inequality fields not ordered explicitly come next, in field-path order, then __name__ breaks
  // ties: all in the direction of the last explicit order, so every page of a paged query agrees.
  const implicitDescending = orders[orders.length - 1]?.descending ?? false
  for (const path of [...inequalityPaths.values()].sort(compareFieldPaths)) {
    if (!ordered.has(pathKey(path))) orders.push({ path, isName: false, descending: implicitDescending })
  }
  // An aggregation's summed and averaged fields order the documents next (so its limit takes the
  // lowest values, and documents without them are left out), as the official emulator does.
  for (const path of options.mustHave ?? []) {
    if (!orders.some((order) => !order.isName && order.path.join('.') === path.join('.')))
      orders.push({ path, isName: false, descending: implicitDescending })
  }
  if (!orders.some((order) => order.isName)) {
    orders.push({ path: [], isName: true, descending: orders[orders.length - 1]?.descending ?? false })
  }
  // A document without an ordered field is not in the result.
  docs = docs.filter((doc) => orders.every((order) => order.isName || getField(doc.fields, order.path) !== undefined))
  docs.sort(compareBy(orders, options.compareValues))

  const startAt = parseCursor(query.startAt)
  const endAt = parseCursor(query.endAt)
  if (startAt) {
    docs = docs.filter((doc) => {
      const position = cursorPosition(db, doc, orders, startAt)
      return startAt.before ? position >= 0 : position > 0
    })
  }
  if (endAt) {
    docs = docs.filter((doc) => {
      const position = cursorPosition(db, doc, orders, endAt)
      return endAt.before ? position < 0 : position <= 0
    })
  }
  const offset = query.offset ?? 0
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) throw invalid('Invalid offset')
  const limit = parseLimit(query.limit)
  return docs.slice(offset, limit === undefined ? undefined : offset + limit)
}

/** The field mask of `select`, or undefined for whole documents. */
export function selectMask(rawQuery: unknown): string[][] | undefined {
  const select = (rawQuery as StructuredQuery | undefined)?.select
  if (select === undefined) return undefined
  if (typeof select !== 'object' || select === null || !Array.isArray(select.fields ?? []))
    throw invalid('Invalid select')
  return (select.fields ?? [])
    .map((field) => (typeof field === 'object' && field !== null ? field.fieldPath : undefined) ?? '')
    .filter((path) => path !== NAME_FIELD)
    .map((path) => parseFieldPath(path))
}
