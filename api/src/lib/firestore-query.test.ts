import { expect, test } from 'vitest'
import { decodeFields, decodeValue, parentIdOf, structuredQueryOf } from './firestore-query.ts'

test('decodeValue turns proto3 JSON values into the plain values firebase-admin gives', () => {
  expect(decodeValue({ stringValue: 'Godt' })).toBe('Godt')
  expect(decodeValue({ integerValue: '1099511627776' })).toBe(2 ** 40)
  expect(decodeValue({ doubleValue: 2.5 })).toBe(2.5)
  expect(decodeValue({ doubleValue: 'Infinity' })).toBe(Number.POSITIVE_INFINITY)
  expect(decodeValue({ doubleValue: '-Infinity' })).toBe(Number.NEGATIVE_INFINITY)
  expect(decodeValue({ doubleValue: 'NaN' })).toBeNaN()
  expect(decodeValue({ booleanValue: false })).toBe(false)
  expect(decodeValue({ nullValue: 'NULL_VALUE' })).toBeNull()
  expect(decodeValue({ arrayValue: {} })).toEqual([])
  expect(decodeValue({ arrayValue: { values: [{ integerValue: '1' }, { mapValue: {} }] } })).toEqual([1, {}])
  expect(decodeValue({ mapValue: { fields: { a: { mapValue: { fields: { b: { stringValue: 'x' } } } } } } })).toEqual({
    a: { b: 'x' },
  })
})

test('timestamps, bytes, references and geo points stay objects no string or number schema accepts', () => {
  expect(decodeValue({ timestampValue: '2026-10-25T01:30:00.123Z' })).toEqual({ timestamp: '2026-10-25T01:30:00.123Z' })
  expect(decodeValue({ bytesValue: 'aGVq' })).toEqual({ bytes: 'aGVq' })
  expect(decodeValue({ referenceValue: 'projects/p/databases/(default)/documents/a/b' })).toEqual({
    reference: 'projects/p/databases/(default)/documents/a/b',
  })
  expect(decodeValue({ geoPointValue: { latitude: 1, longitude: 2 } })).toEqual({
    geoPoint: { latitude: 1, longitude: 2 },
  })
})

test('what is not a value is undefined, and fields that are not an object decode to none', () => {
  expect(decodeValue({})).toBeUndefined()
  expect(decodeValue(null)).toBeUndefined()
  expect(decodeFields(undefined)).toEqual({})
  expect(decodeFields('x')).toEqual({})
})

test("parentIdOf names the document a record belongs to, or '' at the root", () => {
  expect(parentIdOf('persons/anna/registrations/r1')).toBe('anna')
  expect(parentIdOf('a/b/c/d/notes/n1')).toBe('d')
  expect(parentIdOf('registrations/r1')).toBe('')
})

test('structuredQueryOf asks for the names alone when no field is given', () => {
  const body = structuredQueryOf({ collectionId: 'notes', locationId: 'east', from: 'a', to: 'b', fields: [] })
  expect(body.structuredQuery.select.fields).toEqual([{ fieldPath: '__name__' }])
  expect(body.structuredQuery.from).toEqual([{ collectionId: 'notes', allDescendants: true }])
})
