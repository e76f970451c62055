import { invalid } from '../http/errors.ts'
import type { Fields, Value } from './values.ts'

/**
 * Firestore's documented limits ("Quotas and limits"), measured as its "Storage size calculations"
 * measure them, with the errors the official emulator answers (probed; see README "Limits"). The
 * official emulator computes a document's size exactly as the storage-size page does, with one
 * addition found by probing: an empty map or an empty array counts 1 byte.
 */
export const MAX_DOCUMENT_SIZE = 1_048_576
/** The largest string or bytes value: 1 MiB − 89 bytes (UTF-8 bytes of a string, without the +1). */
export const MAX_FIELD_VALUE_SIZE = 1_048_487
/** Maps and non-empty arrays nested in a field, the field's own value included. */
export const MAX_DEPTH = 20
/** A field name, a field path (segments joined by dots, unquoted) and a path segment, in UTF-8 bytes. */
export const MAX_FIELD_PATH_BYTES = 1500
export const MAX_ID_BYTES = 1500
/** A document name's size (its segments' string sizes + 16); the official emulator does not check it. */
export const MAX_DOCUMENT_NAME_SIZE = 6 * 1024

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8')
/** A UTF-16 unit is at most 3 UTF-8 bytes: a short string is within a bound without being measured. */
const exceedsBytes = (text: string, max: number) => text.length * 3 > max && utf8Bytes(text) > max

/** A string as stored: its UTF-8 bytes and one more. */
export const stringSize = (text: string) => utf8Bytes(text) + 1

/** A document name's size: each collection id and document id as a string, and 16 bytes. */
export function documentNameSize(path: string): number {
  let size = 16
  for (const segment of path.split('/')) size += stringSize(segment)
  return size
}

const bytesLength = (base64: unknown) => Buffer.from(String(base64), 'base64').length

/**
 * The storage size of one value, by the storage-size page's table; `upper` counts 3 bytes a UTF-16
 * unit instead of measuring (never less than the size, and much cheaper).
 */
export function valueSize(value: Value, upper = false): number {
  if ('stringValue' in value) {
    const text = String(value.stringValue)
    return upper ? text.length * 3 + 1 : stringSize(text)
  }
  if ('booleanValue' in value || 'nullValue' in value) return 1
  if ('integerValue' in value || 'doubleValue' in value || 'timestampValue' in value) return 8
  if ('bytesValue' in value) return upper ? String(value.bytesValue).length : bytesLength(value.bytesValue)
  if ('geoPointValue' in value) return 16
  if ('referenceValue' in value) {
    const name = String(value.referenceValue)
    const documents = name.indexOf('/documents/')
    return documentNameSize(documents < 0 ? name : name.slice(documents + '/documents/'.length))
  }
  if ('arrayValue' in value) {
    const values = (value.arrayValue as { values?: Value[] } | null)?.values ?? []
    if (values.length === 0) return 1
    let size = 0
    for (const item of values) size += valueSize(item, upper)
    return size
  }
  if ('mapValue' in value) {
    const fields = (value.mapValue as { fields?: Fields } | null)?.fields ?? {}
    const vector = vectorDimensions(fields)
    if (vector !== undefined) return 8 * vector
    const size = fieldsSize(fields, upper)
    return size === 0 ? 1 : size
  }
  return 0
}

/** A vector value (`{__type__: '__vector__', value: [numbers]}`) is 8 bytes per dimension. */
function vectorDimensions(fields: Fields): number | undefined {
  if (fields.__type__?.stringValue !== '__vector__') return undefined
  const values = (fields.value?.arrayValue as { values?: Value[] } | undefined)?.values
  return Array.isArray(values) ? values.length : undefined
}

/** The fields' size: each field name as a string and its value. */
export function fieldsSize(fields: Fields, upper = false): number {
  let size = 0
  for (const name in fields)
    size += (upper ? name.length * 3 + 1 : stringSize(name)) + valueSize(fields[name] as Value, upper)
  return size
}

/** A document's size: its name, its fields, and 32 bytes. */
export const documentSize = (path: string, fields: Fields) => documentNameSize(path) + fieldsSize(fields) + 32

/**
 * Refuses a document bigger than 1 MiB, with production's message (as Firestore answers clients; the
 * official emulator says only "maximum entity size is 1048576 bytes").
 */
export function checkDocumentSize(root: string, path: string, fields: Fields): void {
  if (documentNameSize(path) + fieldsSize(fields, true) + 32 <= MAX_DOCUMENT_SIZE) return
  const size = documentSize(path, fields)
  if (size <= MAX_DOCUMENT_SIZE) return
  throw invalid(
    `Document '${root}/${path}' cannot be written because its size (${size.toLocaleString('en-US')} bytes) exceeds the maximum allowed size of ${MAX_DOCUMENT_SIZE.toLocaleString('en-US')} bytes.`,
  )
}

/** Refuses a document name over 6 KiB (the official emulator has no such check; the text is ours). */
export function checkDocumentNameSize(path: string): void {
  const size = documentNameSize(path)
  if (size > MAX_DOCUMENT_NAME_SIZE)
    throw invalid(
      `Document name size (${size} bytes) exceeds the maximum allowed size of ${MAX_DOCUMENT_NAME_SIZE} bytes.`,
    )
}

/** A path segment over 1500 bytes, named as the official emulator and production name it. */
export function checkIdSize(segment: string, isCollection: boolean): void {
  if (utf8Bytes(segment) > MAX_ID_BYTES)
    throw invalid(`The key path element ${isCollection ? 'kind' : 'name'} is longer than ${MAX_ID_BYTES} bytes.`)
}

/** A field path given in an update mask, as its segments: refused over 1500 bytes. */
export function checkMaskPath(segments: string[]): void {
  if (pathBytes(segments) > MAX_FIELD_PATH_BYTES)
    throw invalid(`property path is longer than ${MAX_FIELD_PATH_BYTES} bytes.`)
}

const pathBytes = (segments: string[]) =>
  segments.reduce((sum, segment) => sum + utf8Bytes(segment), 0) + segments.length - 1

const RESERVED_FIELD = /^__.*__$/

/** Why a field is refused; `nested` marks a problem below the field's own value. */
class FieldProblem extends Error {
  constructor(
    message: string,
    readonly nested: boolean,
  ) {
    super(message)
  }
}

/**
 * Checks the fields a write sends, in their order, as the official emulator does: a field's name
 * (empty, reserved, over 1500 bytes), a string or bytes value over 1 MiB − 89 bytes, an array in an
 * array, and, anywhere inside a map (or a map in an array), any of these, a field path over 1500
 * bytes or nesting deeper than 20, which it reports as "an invalid nested entity" of the top field.
 */
export function checkWriteFields(fields: Fields): void {
  for (const name in fields) {
    if (name === '') throw invalid('The property.name is the empty string.')
    if (RESERVED_FIELD.test(name)) throw invalid(`field name ${name} is reserved`)
    if (exceedsBytes(name, MAX_FIELD_PATH_BYTES))
      throw invalid(`The property.name is longer than ${MAX_FIELD_PATH_BYTES} bytes.`)
    const value = fields[name] as Value
    // An array in an array is refused wherever it is, before anything else is looked at.
    if (hasNestedArray(value, false)) throw invalid('Cannot convert an array value in an array value.')
    try {
      checkValue(value, name, utf8Bytes(name), 0, false)
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error
      throw invalid(error.nested ? `Property ${name} contains an invalid nested entity.` : error.message)
    }
  }
}

function hasNestedArray(value: Value, inArray: boolean): boolean {
  if ('arrayValue' in value) {
    if (inArray) return true
    return ((value.arrayValue as { values?: Value[] } | null)?.values ?? []).some((item) => hasNestedArray(item, true))
  }
  if ('mapValue' in value) {
    const fields = (value.mapValue as { fields?: Fields } | null)?.fields ?? {}
    for (const key in fields) if (hasNestedArray(fields[key] as Value, false)) return true
  }
  return false
}

/**
 * `depth`: the maps and non-empty arrays around this value; `path`: the field path's bytes so far;
 * `inMap`: below a map, where every problem is the top field's "invalid nested entity".
 */
function checkValue(value: Value, top: string, path: number, depth: number, inMap: boolean): void {
  if ('stringValue' in value || 'bytesValue' in value) {
    const tooLong =
      'stringValue' in value
        ? exceedsBytes(String(value.stringValue), MAX_FIELD_VALUE_SIZE)
        : String(value.bytesValue).length > MAX_FIELD_VALUE_SIZE && bytesLength(value.bytesValue) > MAX_FIELD_VALUE_SIZE
    if (tooLong)
      throw new FieldProblem(`The value of property "${top}" is longer than ${MAX_FIELD_VALUE_SIZE} bytes.`, inMap)
    return
  }
  if ('arrayValue' in value) {
    const values = (value.arrayValue as { values?: Value[] } | null)?.values ?? []
    if (values.length === 0) return
    if (depth + 1 > MAX_DEPTH) throw new FieldProblem('too deep', true)
    for (const item of values) checkValue(item, top, path, depth + 1, inMap)
    return
  }
  if ('mapValue' in value) {
    if (depth + 1 > MAX_DEPTH) throw new FieldProblem('too deep', true)
    const fields = (value.mapValue as { fields?: Fields } | null)?.fields ?? {}
    const vector = vectorDimensions(fields) !== undefined
    for (const key in fields) {
      if (!vector && RESERVED_FIELD.test(key)) throw invalid(`field name '${key}' is reserved.`)
      const keyPath = path + 1 + utf8Bytes(key)
      if (keyPath > MAX_FIELD_PATH_BYTES) throw new FieldProblem('path too long', true)
      checkValue(fields[key] as Value, top, keyPath, depth + 1, true)
    }
  }
}

// ── Query limits (probed against the official emulator) ──

/** The most comparison values of an `in` or `array-contains-any` filter, and of a `not-in` one. */
export const MAX_IN_VALUES = 30
export const MAX_NOT_IN_VALUES = 10
/** The most disjunctions a filter may have in disjunctive normal form. */
export const MAX_DISJUNCTIONS = 30

type RawFilter = Record<string, Record<string, unknown> | undefined>
const FIELD_OP_NAMES: Record<number, string> = { 8: 'IN', 9: 'ARRAY_CONTAINS_ANY', 10: 'NOT_IN' }

function fieldOp(filter: RawFilter): string | undefined {
  const op = filter.fieldFilter?.op
  return typeof op === 'number' ? FIELD_OP_NAMES[op] : typeof op === 'string' ? op : undefined
}

function listOf(filter: RawFilter): Value[] {
  const value = filter.fieldFilter?.value as Value | undefined
  const values = (value?.arrayValue as { values?: unknown } | undefined)?.values
  return Array.isArray(values) ? (values as Value[]) : []
}

/**
 * Refuses an `in`/`array-contains-any` of more than 30 values, a `not-in` of more than 10, and a
 * filter of more than 30 disjunctions once normalised (each `in` or `array-contains-any` is one
 * disjunction per distinct value, an `or` adds, an `and` multiplies), with the official emulator's
 * messages. Like the official emulator, it gives up normalising an `and` past twice the maximum.
 */
export function checkQueryFilterLimits(where: unknown): void {
  checkValueCounts(where)
  const count = disjunctions(where)
  if (count > MAX_DISJUNCTIONS)
    throw invalid(
      `Too many disjunctions after normalization. Result had ${count} disjunctions which is more than the maximum of ${MAX_DISJUNCTIONS}`,
    )
}

function checkValueCounts(filter: unknown): void {
  if (typeof filter !== 'object' || filter === null) return
  const f = filter as RawFilter
  const inner = f.compositeFilter?.filters
  if (Array.isArray(inner)) {
    for (const item of inner) checkValueCounts(item)
    return
  }
  const op = fieldOp(f)
  const max =
    op === 'IN' || op === 'ARRAY_CONTAINS_ANY' ? MAX_IN_VALUES : op === 'NOT_IN' ? MAX_NOT_IN_VALUES : undefined
  if (max !== undefined && listOf(f).length > max) throw invalid(`'${op}' supports up to ${max} comparison values.`)
}

function disjunctions(filter: unknown): number {
  if (typeof filter !== 'object' || filter === null) return 1
  const f = filter as RawFilter
  const inner = f.compositeFilter?.filters
  if (Array.isArray(inner)) {
    if (inner.length === 0) return 1
    const counts = inner.map(disjunctions)
    const op = f.compositeFilter?.op
    if (op === 'OR' || op === 2) return counts.reduce((sum, n) => sum + n, 0)
    let product = 1
    for (const n of counts) {
      product *= n
      if (product > 2 * MAX_DISJUNCTIONS)
        throw invalid(`Too many disjunctions after normalization, the maximum is ${MAX_DISJUNCTIONS}`)
    }
    return product
  }
  const op = fieldOp(f)
  if (op !== 'IN' && op !== 'ARRAY_CONTAINS_ANY') return 1
  // Repeated values are one disjunction: `in [1, 1, 1]` is `== 1`.
  const distinct = new Set(listOf(f).map((value) => JSON.stringify(value)))
  return Math.max(1, distinct.size)
}
