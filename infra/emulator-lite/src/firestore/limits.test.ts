import { expect, test } from 'vitest'
import { ApiError } from '../http/errors.ts'
import {
  checkDocumentSize,
  checkQueryFilterLimits,
  checkWriteFields,
  documentNameSize,
  documentSize,
  MAX_DOCUMENT_SIZE,
  valueSize,
} from './limits.ts'
import type { Fields, Value } from './values.ts'

const str = (length: number): Value => ({ stringValue: 'x'.repeat(length) })
const map = (fields: Fields): Value => ({ mapValue: { fields } })
const arr = (...values: Value[]): Value => ({ arrayValue: { values } })
const nested = (depth: number, leaf: Value): Value => (depth === 0 ? leaf : map({ m: nested(depth - 1, leaf) }))

function refusal(fields: Fields): string | undefined {
  try {
    checkWriteFields(fields)
    return undefined
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return `${error.status}: ${error.message}`
  }
}

test("sizes follow the storage-size page's worked example (users/jeff/tasks/my_task_id: 44 + 71 + 32 = 147)", () => {
  expect(documentNameSize('users/jeff/tasks/my_task_id')).toBe(44)
  const fields: Fields = {
    type: { stringValue: 'Personal' },
    done: { booleanValue: false },
    priority: { integerValue: '1' },
    description: { stringValue: 'Learn Cloud Firestore' },
  }
  expect(documentSize('users/jeff/tasks/my_task_id', fields)).toBe(147)
})

test('value sizes by type, as the official emulator counts them (empty maps and arrays are 1 byte)', () => {
  expect(valueSize({ stringValue: 'é' })).toBe(3)
  expect(valueSize({ bytesValue: 'AAAA' })).toBe(3)
  expect(valueSize({ nullValue: null })).toBe(1)
  expect(valueSize({ doubleValue: 'NaN' })).toBe(8)
  expect(valueSize({ timestampValue: '2020-01-01T00:00:00Z' })).toBe(8)
  expect(valueSize({ geoPointValue: { latitude: 1, longitude: 2 } })).toBe(16)
  expect(valueSize({ referenceValue: 'projects/p/databases/(default)/documents/c/x/s/y' })).toBe(24)
  expect(valueSize(arr())).toBe(1)
  expect(valueSize(map({}))).toBe(1)
  expect(valueSize(arr({ booleanValue: true }, { booleanValue: false }))).toBe(2)
  expect(valueSize(map({ éé: { booleanValue: true } }))).toBe(6)
  const vector = map({
    __type__: { stringValue: '__vector__' },
    value: arr({ doubleValue: 1 }, { doubleValue: 2 }, { doubleValue: 3 }),
  })
  expect(valueSize(vector)).toBe(24)
})

test('a document of exactly 1 MiB is kept; one byte more is refused with production’s message', () => {
  // c/d1: 2 + 3 + 16 = 21; a: 2 + (k + 1); b: 2 + 600001; + 32.
  const k = MAX_DOCUMENT_SIZE - 21 - 2 - 1 - 2 - 600_001 - 32
  expect(() =>
    checkDocumentSize('projects/p/databases/(default)/documents', 'c/d1', { a: str(k), b: str(600_000) }),
  ).not.toThrow()
  expect(() =>
    checkDocumentSize('projects/p/databases/(default)/documents', 'c/d1', { a: str(k + 1), b: str(600_000) }),
  ).toThrow(
    "Document 'projects/p/databases/(default)/documents/c/d1' cannot be written because its size (1,048,577 bytes) exceeds the maximum allowed size of 1,048,576 bytes.",
  )
})

test('field values, names, paths and depth are refused as the official emulator refuses them', () => {
  expect(refusal({ f: str(1_048_487) })).toBeUndefined()
  expect(refusal({ f: str(1_048_488) })).toBe(
    'INVALID_ARGUMENT: The value of property "f" is longer than 1048487 bytes.',
  )
  expect(refusal({ f: { stringValue: 'é'.repeat(524_244) } })).toMatch(/longer than 1048487 bytes/)
  expect(refusal({ a: arr(str(1_048_488)) })).toBe(
    'INVALID_ARGUMENT: The value of property "a" is longer than 1048487 bytes.',
  )
  expect(refusal({ m: map({ f: str(1_048_488) }) })).toBe(
    'INVALID_ARGUMENT: Property m contains an invalid nested entity.',
  )
  expect(refusal({ a: arr(map({ s: str(1_048_488) })) })).toBe(
    'INVALID_ARGUMENT: Property a contains an invalid nested entity.',
  )
  expect(refusal({ f: nested(20, str(1)) })).toBeUndefined()
  expect(refusal({ f: nested(21, str(1)) })).toBe('INVALID_ARGUMENT: Property f contains an invalid nested entity.')
  expect(refusal({ f: nested(19, arr(str(1))) })).toBeUndefined()
  expect(refusal({ f: nested(20, arr(str(1))) })).toMatch(/invalid nested entity/)
  expect(refusal({ f: nested(20, arr()) })).toBeUndefined()
  expect(refusal({ f: nested(20, map({})) })).toMatch(/invalid nested entity/)
  expect(refusal({ ['n'.repeat(1500)]: str(1) })).toBeUndefined()
  expect(refusal({ ['é'.repeat(751)]: str(1) })).toBe('INVALID_ARGUMENT: The property.name is longer than 1500 bytes.')
  expect(refusal({ a: map({ ['m'.repeat(1498)]: str(1) }) })).toBeUndefined()
  expect(refusal({ a: map({ ['m'.repeat(1499)]: str(1) }) })).toBe(
    'INVALID_ARGUMENT: Property a contains an invalid nested entity.',
  )
  expect(refusal({ '': str(1) })).toBe('INVALID_ARGUMENT: The property.name is the empty string.')
  expect(refusal({ __x__: str(1) })).toBe('INVALID_ARGUMENT: field name __x__ is reserved')
  expect(refusal({ m: map({ __x__: str(1) }) })).toBe("INVALID_ARGUMENT: field name '__x__' is reserved.")
  expect(refusal({ m: map({ x: arr(arr()) }) })).toBe(
    'INVALID_ARGUMENT: Cannot convert an array value in an array value.',
  )
  // The first field in the request's order is the one reported.
  expect(refusal({ z: str(1_048_488), a: nested(21, str(1)) })).toMatch(/property "z"/)
})

test('queries: at most 30 in-values (10 not-in) and 30 disjunctions once normalised, as the official emulator counts them', () => {
  const list = (n: number, same = false): Value => ({
    arrayValue: { values: Array.from({ length: n }, (_, i) => ({ integerValue: same ? '1' : String(i) })) },
  })
  const where = (op: string, value: Value, field = 'a') => ({ fieldFilter: { field: { fieldPath: field }, op, value } })
  const all = (...filters: unknown[]) => ({ compositeFilter: { op: 'AND', filters } })
  const any = (...filters: unknown[]) => ({ compositeFilter: { op: 'OR', filters } })
  const refusal = (filter: unknown) => {
    try {
      checkQueryFilterLimits(filter)
      return undefined
    } catch (error) {
      return (error as Error).message
    }
  }
  expect(refusal(where('IN', list(30)))).toBeUndefined()
  expect(refusal(where('IN', list(31)))).toBe("'IN' supports up to 30 comparison values.")
  expect(refusal(where('NOT_IN', list(11)))).toBe("'NOT_IN' supports up to 10 comparison values.")
  expect(refusal(all(where('IN', list(16, true), 'x'), where('IN', list(2), 'y')))).toBeUndefined()
  expect(refusal(all(where('IN', list(2), 'x'), where('ARRAY_CONTAINS_ANY', list(16), 'y')))).toBe(
    'Too many disjunctions after normalization. Result had 32 disjunctions which is more than the maximum of 30',
  )
  expect(refusal(all(where('IN', list(8), 'x'), where('IN', list(8), 'y')))).toBe(
    'Too many disjunctions after normalization, the maximum is 30',
  )
  expect(refusal(any(...Array.from({ length: 100 }, () => where('EQUAL', { integerValue: '1' }))))).toMatch(
    /Result had 100 disjunctions/,
  )
})
