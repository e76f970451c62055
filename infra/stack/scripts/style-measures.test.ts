import { expect, test } from 'vitest'
import { collectionLiteral, cycles, type Edge, HAND_RETRY, QUERY_CALLS, WARN_ON_ERROR } from './style-measures.ts'

const edge = (from: string, to: string, typeOnly = false): Edge => ({ from, to, spec: to, typeOnly })

test('a cycle is a group of files importing each other, however long the loop', () => {
  expect(cycles([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd')])).toEqual([['a', 'b', 'c']])
  expect(cycles([edge('a', 'b'), edge('b', 'c')])).toEqual([])
  expect(cycles([edge('a', 'a')])).toEqual([['a']])
})

test('collection literals are the names used as collections or paths, not fields of the same name', () => {
  const pattern = collectionLiteral(['persons', 'users'])
  const hits = (text: string) => [...text.matchAll(pattern)].length
  expect(hits("db.collection('persons').doc(id)")).toBe(1)
  expect(hits(['const path = `persons/', '$', '{id}/notes`'].join(''))).toBe(1)
  expect(hits("if (kind === 'users') return")).toBe(1)
  expect(hits("locations.where('persons', 'array-contains', id)")).toBe(0)
  expect(hits("type Kind = 'persons' | 'users'")).toBe(0)
})

test('query-cache calls, retry texts and console-only onError handlers are recognised with generics and spacing', () => {
  const text = 'useQuery<Person>({}) ; useInfiniteQuery({}); useMutation({ onError: (error) => console.warn(error) })'
  const [queries, mutations] = QUERY_CALLS
  expect([...text.matchAll(queries![1])].length).toBe(2)
  expect([...text.matchAll(mutations![1])].length).toBe(1)
  expect([...text.matchAll(WARN_ON_ERROR)].length).toBe(1)
  expect([...'<button>{da.daily.retry}</button>'.matchAll(HAND_RETRY)].length).toBe(1)
})
