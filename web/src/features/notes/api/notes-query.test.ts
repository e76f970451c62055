import { expect, test } from 'vitest'
import { type NotesQuery, notesQueryParts } from './notes-query.ts'

const base: NotesQuery = {
  locationId: 'loc',
  personIds: [],
  from: '2026-11-01',
  to: '2026-11-24',
  after: null,
  limit: 25,
}

test("a location's page fixes locationId (the rules' condition), the period, newest first, one more than the page", () => {
  expect(notesQueryParts(base)).toEqual([
    { kind: 'where', field: 'locationId', op: '==', value: 'loc' },
    { kind: 'where', field: 'day', op: '>=', value: '2026-11-01' },
    { kind: 'where', field: 'day', op: '<=', value: '2026-11-24' },
    { kind: 'orderBy', field: 'day', direction: 'desc' },
    { kind: 'orderBy', field: 'createdAt', direction: 'desc' },
    { kind: 'orderBy', field: '__name__', direction: 'desc' },
    { kind: 'limit', value: 26 },
  ])
})

test('one person is an equality, several an in-filter; the next page starts after the last entry', () => {
  const one = notesQueryParts({ ...base, personIds: ['p1'] })
  expect(one[1]).toEqual({ kind: 'where', field: 'personId', op: '==', value: 'p1' })
  const after = { day: '2026-11-20', createdAt: 'T', path: 'persons/p1/notes/n1' }
  const several = notesQueryParts({ ...base, personIds: ['p1', 'p2'], after })
  expect(several[1]).toEqual({ kind: 'where', field: 'personId', op: 'in', value: ['p1', 'p2'] })
  expect(several.at(-2)).toEqual({ kind: 'startAfter', values: ['2026-11-20', 'T', 'persons/p1/notes/n1'] })
})

test('more persons than one in-filter takes are refused, not silently cut', () => {
  const persons = Array.from({ length: 31 }, (_, index) => `p${index}`)
  expect(() => notesQueryParts({ ...base, personIds: persons })).toThrow('at most 30 persons')
})
