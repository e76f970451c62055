import fc from 'fast-check'
import { expect, test } from 'vitest'
import {
  compareStrings,
  compareValues,
  type Fields,
  formatTimestamp,
  parseTimestamp,
  truncateTimestamps,
  typeKey,
  type Value,
} from './values.ts'

const utf8Order = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')))
/** Any UTF-16 units, lone surrogates included. */
const units = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) })
const nearSurrogates = fc.string({
  unit: fc.constantFrom('a', 'é', '\uD7FF', '\uE000', '\uFFFF', '\uFFFD', '😀', '\uD83D', '\uDE00', '\u0000'),
  maxLength: 6,
})

test('strings compare in UTF-8 byte order, as Firestore orders them, whatever their units', () => {
  for (const strings of [fc.string({ unit: 'binary' }), units, nearSurrogates]) {
    fc.assert(
      fc.property(strings, strings, (a, b) => {
        expect(compareStrings(a, b)).toBe(utf8Order(a, b))
      }),
      { numRuns: 3000 },
    )
  }
  // Above the BMP sorts after U+E000–U+FFFF, unlike UTF-16 code units.
  expect(compareStrings('\uFFFF', '😀')).toBe(-1)
  expect(compareStrings('😀', '\uE000')).toBe(1)
  expect(compareStrings('a', 'ab')).toBe(-1)
  expect(compareStrings('', '')).toBe(0)
})

test("a value's type is the first type key it has, in Firestore's order", () => {
  expect(typeKey({ stringValue: 'x' })).toBe('stringValue')
  expect(typeKey({ stringValue: 'x', nullValue: null } as Value)).toBe('nullValue')
  expect(typeKey({ mapValue: {}, integerValue: '1' } as Value)).toBe('integerValue')
  expect(() => typeKey({ other: 1 } as unknown as Value)).toThrow(/Unknown value type/)
  expect(() => typeKey([] as unknown as Value)).toThrow(/must be an object/)
  expect(compareValues({ stringValue: 'b' }, { stringValue: 'a' })).toBe(1)
  expect(compareValues({ integerValue: '5' }, { stringValue: 'a' })).toBe(-1)
})

const vector = (...values: number[]): Value => ({
  mapValue: {
    fields: {
      __type__: { stringValue: '__vector__' },
      value: { arrayValue: { values: values.map((doubleValue) => ({ doubleValue })) } },
    },
  },
})

test('vectors come after arrays and before maps, shorter first, then element by element', () => {
  const inOrder: Value[] = [
    { arrayValue: { values: [{ integerValue: '100' }] } },
    vector(Number.NEGATIVE_INFINITY),
    vector(-100),
    vector(100),
    vector(Number.POSITIVE_INFINITY),
    vector(1, 2),
    vector(2, 2),
    vector(1, 2, 3),
    vector(1, 2, 100, 4, 4),
    vector(100, 2, 3, 4, 5),
    { mapValue: { fields: { HELLO: { stringValue: 'WORLD' } } } },
  ]
  const shuffled = [...inOrder].reverse()
  expect(shuffled.sort(compareValues)).toEqual(inOrder)
})

test('timestamps before 1970 format with the second below and a positive fraction', () => {
  expect(formatTimestamp(-1n)).toBe('1969-12-31T23:59:59.999999999Z')
  expect(formatTimestamp(-1_000_000_000n)).toBe('1969-12-31T23:59:59.000000000Z')
  expect(formatTimestamp(1_500_000_000n)).toBe('1970-01-01T00:00:01.500000000Z')
  fc.assert(
    fc.property(fc.bigInt({ min: -62135596800000000000n, max: 253402300799999999999n }), (nanos) => {
      expect(parseTimestamp(formatTimestamp(nanos))).toBe(nanos)
    }),
  )
})

test('stored timestamps keep microseconds, rounded down, at any depth (as the official emulator)', () => {
  const fields: Fields = {
    t: { timestampValue: '1970-01-01T00:00:00.000000001Z' },
    before: { timestampValue: '1969-12-31T23:59:59.999999999Z' },
    nested: {
      mapValue: { fields: { a: { arrayValue: { values: [{ timestampValue: '2026-01-01T00:00:00.123456789Z' }] } } } },
    },
    exact: { timestampValue: '2026-01-01T00:00:00.123456Z' },
  }
  truncateTimestamps(fields)
  expect(fields.t).toEqual({ timestampValue: '1970-01-01T00:00:00.000000000Z' })
  expect(fields.before).toEqual({ timestampValue: '1969-12-31T23:59:59.999999000Z' })
  expect(JSON.stringify(fields.nested)).toContain('2026-01-01T00:00:00.123456000Z')
  expect(fields.exact).toEqual({ timestampValue: '2026-01-01T00:00:00.123456Z' })
})
