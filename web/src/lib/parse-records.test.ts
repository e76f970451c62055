import { afterEach, expect, test, vi } from 'vitest'
import * as z from 'zod/mini'
import { mergeParsed, parseRecords } from './parse-records.ts'

const Schema = z.object({ id: z.string(), value: z.number() })

afterEach(() => {
  vi.restoreAllMocks()
})

test('every record that fits is kept, in order, with nothing reported', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  expect(
    parseRecords(
      'registrations',
      [
        { id: 'a', value: 1 },
        { id: 'b', value: 2 },
      ],
      (r) => Schema.parse(r),
    ),
  ).toEqual({
    items: [
      { id: 'a', value: 1 },
      { id: 'b', value: 2 },
    ],
    skipped: 0,
  })
  expect(warn).not.toHaveBeenCalled()
})

test('a record that fails its schema is left out and counted; the others are kept', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const records = [
    { id: 'a', value: 1 },
    { id: 'Anna Andersen, CPR 0101', value: 'x' },
    { value: 3 },
    { id: 'd', value: 4 },
  ]
  const parsed = parseRecords('registrations', records, (r) => Schema.parse(r))
  expect(parsed.items.map((r) => r.id)).toEqual(['a', 'd'])
  expect(parsed.skipped).toBe(2)
  // Reported once for the list, naming the fields at fault and no value.
  expect(warn).toHaveBeenCalledTimes(1)
  const line = String(warn.mock.calls[0]?.[0])
  expect(line).toBe('registrations: 2 record(s) left out, not fitting the schema (fields: id, value)')
  expect(line).not.toContain('Anna')
})

test('an error that is no schema error is counted too, without fields', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const parsed = parseRecords('notes', [1, 2], (n) => {
    if (n === 2) throw new TypeError('boom')
    return n
  })
  expect(parsed).toEqual({ items: [1], skipped: 1 })
  expect(String(warn.mock.calls[0]?.[0])).toBe('notes: 1 record(s) left out, not fitting the schema')
})

test('pages of one list add up', () => {
  expect(mergeParsed({ items: [1], skipped: 1 }, { items: [2, 3], skipped: 2 })).toEqual({
    items: [1, 2, 3],
    skipped: 3,
  })
})
