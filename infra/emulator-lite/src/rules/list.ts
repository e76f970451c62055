import { parseFieldPath } from '../firestore/paths.ts'
// Admin sends enums as integers, the web SDKs as names: the same tables as the query engine's.
import { COMPOSITE_OPS, DIRECTIONS, FIELD_OPS, UNARY_OPS } from '../firestore/query.ts'
import type { Value } from '../firestore/values.ts'
import { type ConstraintOp, fail, fromValue, RConstraint, type RMap, type RValue } from './values.ts'

/** More ways than this is not a query Firestore accepts (it caps disjunctions at 30). */
export const MAX_WAYS = 512

type Atom = { field: string; op: string; value: Value }
export type Way = Atom[]

function enumName(value: unknown, names: string[], what: string): string {
  const name = typeof value === 'number' ? names[value] : value
  if (typeof name !== 'string' || name === '' || !names.includes(name)) return fail(`Invalid ${what} in the query.`)
  return name
}

function fieldOf(raw: unknown): string {
  const path = (raw as { fieldPath?: unknown } | undefined)?.fieldPath
  if (typeof path !== 'string' || path === '') return fail('Invalid field path in the query.')
  return path
}

function arrayItems(value: Value): Value[] {
  const values = (value?.arrayValue as { values?: unknown } | undefined)?.values ?? []
  if (typeof value !== 'object' || value === null || !('arrayValue' in value) || !Array.isArray(values))
    return fail('IN, NOT_IN and ARRAY_CONTAINS_ANY need an array value.')
  return values as Value[]
}

/** The filter in disjunctive normal form: each way is a conjunction of simple filters. */
export function waysOf(filter: unknown): Way[] {
  if (filter === undefined || filter === null) return [[]]
  if (typeof filter !== 'object') return fail('Invalid filter in the query.')
  const f = filter as Record<string, Record<string, unknown> | undefined>
  if (f.compositeFilter) {
    const op = enumName(f.compositeFilter.op, COMPOSITE_OPS, 'composite operator')
    const filters = f.compositeFilter.filters
    if (!Array.isArray(filters)) return fail('Invalid composite filter in the query.')
    const parts = filters.map(waysOf)
    if (op === 'OR') return cap(parts.flat())
    let result: Way[] = [[]]
    for (const part of parts) result = cap(result.flatMap((left) => part.map((right) => [...left, ...right])))
    return result
  }
  if (f.unaryFilter) {
    const op = enumName(f.unaryFilter.op, UNARY_OPS, 'unary operator')
    const field = fieldOf(f.unaryFilter.field)
    if (op === 'IS_NULL') return [[{ field, op: 'EQUAL', value: { nullValue: null } }]]
    if (op === 'IS_NAN') return [[{ field, op: 'EQUAL', value: { doubleValue: Number.NaN } }]]
    if (op === 'IS_NOT_NULL') return [[{ field, op: 'NOT_EQUAL', value: { nullValue: null } }]]
    return [[{ field, op: 'NOT_EQUAL', value: { doubleValue: Number.NaN } }]]
  }
  if (f.fieldFilter) {
    const op = enumName(f.fieldFilter.op, FIELD_OPS, 'field operator')
    const field = fieldOf(f.fieldFilter.field)
    const value = f.fieldFilter.value as Value
    if (typeof value !== 'object' || value === null) return fail('Invalid filter value in the query.')
    if (op === 'IN') return cap(arrayItems(value).map((item) => [{ field, op: 'EQUAL', value: item }]))
    if (op === 'ARRAY_CONTAINS_ANY')
      return cap(arrayItems(value).map((item) => [{ field, op: 'ARRAY_CONTAINS', value: item }]))
    if (op === 'NOT_IN') arrayItems(value)
    return [[{ field, op, value }]]
  }
  return fail('Invalid filter in the query.')
}

function cap(ways: Way[]): Way[] {
  if (ways.length > MAX_WAYS) fail(`The query's filter has more than ${MAX_WAYS} disjunctions.`)
  return ways
}

const CONSTRAINT_OPS: Record<string, ConstraintOp> = {
  EQUAL: 'EQ',
  NOT_EQUAL: 'NEQ',
  LESS_THAN: 'LT',
  LESS_THAN_OR_EQUAL: 'LTE',
  GREATER_THAN: 'GT',
  GREATER_THAN_OR_EQUAL: 'GTE',
  ARRAY_CONTAINS: 'LIST_CONTAINS',
}

/** The document name a way pins with `__name__ ==` (or one value of `__name__ in`), if any. */
export function pinnedName(way: Way): string | undefined {
  for (const atom of way) {
    if (atom.field === '__name__' && atom.op === 'EQUAL' && typeof atom.value.referenceValue === 'string')
      return atom.value.referenceValue
  }
  return undefined
}

/** `resource.data` of one way: fixed fields hold values, other filtered fields hold constraints. */
export function symbolicData(way: Way): RMap {
  const byField = new Map<string, Atom[]>()
  for (const atom of way) {
    if (atom.field === '__name__') continue
    const atoms = byField.get(atom.field)
    if (atoms) atoms.push(atom)
    else byField.set(atom.field, [atom])
  }
  const data: RMap = new Map()
  for (const [field, atoms] of byField) {
    let value: RValue
    const only = atoms[0] as Atom
    if (atoms.length === 1 && only.op === 'EQUAL') value = fromValue(only.value)
    else {
      const filters: { op: ConstraintOp; value: RValue }[] = []
      for (const atom of atoms) {
        if (atom.op === 'NOT_IN') {
          for (const item of arrayItems(atom.value)) filters.push({ op: 'NEQ', value: fromValue(item) })
        } else filters.push({ op: CONSTRAINT_OPS[atom.op] as ConstraintOp, value: fromValue(atom.value) })
      }
      value = new RConstraint(filters)
    }
    let segments: string[]
    try {
      segments = parseFieldPath(field)
    } catch {
      return fail(`Invalid field path ${field} in the query.`)
    }
    let target = data
    for (const segment of segments.slice(0, -1)) {
      let next = target.get(segment)
      if (!(next instanceof Map)) {
        next = new Map()
        target.set(segment, next)
      }
      target = next
    }
    target.set(segments[segments.length - 1] as string, value)
  }
  return data
}

/** `request.query`: only the keys the query sets, so reading an unset one is an error. */
export function queryMap(query: Record<string, unknown>): RMap {
  const map: RMap = new Map()
  const limit =
    typeof query.limit === 'object' && query.limit !== null ? (query.limit as { value?: unknown }).value : query.limit
  if (typeof limit === 'number') map.set('limit', BigInt(Math.trunc(limit)))
  if (typeof query.offset === 'number' && query.offset > 0) map.set('offset', BigInt(Math.trunc(query.offset)))
  if (Array.isArray(query.orderBy) && query.orderBy.length > 0) {
    map.set(
      'orderBy',
      query.orderBy.map((order: { field?: { fieldPath?: unknown }; direction?: unknown }) => {
        const entry: RMap = new Map()
        entry.set('fieldPath', String(order?.field?.fieldPath ?? ''))
        entry.set('direction', enumName(order?.direction ?? 'ASCENDING', DIRECTIONS, 'direction'))
        return entry
      }),
    )
  }
  return map
}
