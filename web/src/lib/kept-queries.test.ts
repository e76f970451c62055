import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { queryClient } from './query-client.ts'

// IndexedDB is the edge: a map stands in for idb-keyval's store.
const kept = new Map<string, unknown>()
vi.mock('idb-keyval', () => ({
  createStore: () => 'store',
  get: async (key: string) => kept.get(key),
  set: async (key: string, value: unknown) => void kept.set(key, structuredClone(value)),
  del: async (key: string) => void kept.delete(key),
}))
const { forgetQueries, keepQueries, restoreQueries } = await import('./kept-queries.ts')

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(async () => {
  await forgetQueries()
  queryClient.clear()
  vi.useRealTimers()
})

test("a moment after a read, the care pages' data is kept; Statistik's and the administration's are not", async () => {
  keepQueries('u1')
  queryClient.setQueryData(['registrations', 'day', 'L1', '2026-11-27'], ['r1'])
  queryClient.setQueryData(['statistics', 'L1'], { big: true })
  queryClient.setQueryData(['admin', 'overview'], ['x'])
  expect(kept.size).toBe(0)
  await vi.advanceTimersByTimeAsync(2_000)
  expect(kept.get('queries')).toMatchObject({
    owner: 'u1',
    queries: [{ queryKey: ['registrations', 'day', 'L1', '2026-11-27'], data: ['r1'] }],
  })
})

test("a start without a connection shows the owner's pages, fresh until the connection is back, then read again", async () => {
  keepQueries('u1')
  queryClient.setQueryData(['persons', 'location', 'L1'], ['p1'])
  await vi.advanceTimersByTimeAsync(2_000)
  queryClient.clear()

  expect(await restoreQueries('u2')).toBe(false)
  expect(queryClient.getQueryData(['persons', 'location', 'L1'])).toBeUndefined()

  expect(await restoreQueries('u1')).toBe(true)
  expect(queryClient.getQueryData(['persons', 'location', 'L1'])).toEqual(['p1'])
  expect(queryClient.getQueryState(['persons', 'location', 'L1'])?.isInvalidated).toBe(false)
  const read = vi.fn(async () => ['p1', 'p2'])
  // Fresh: a page asking for it gets it without a read.
  expect(
    await queryClient.fetchQuery({ queryKey: ['persons', 'location', 'L1'], queryFn: read, staleTime: 30_000 }),
  ).toEqual(['p1'])
  expect(read).not.toHaveBeenCalled()
  window.dispatchEvent(new Event('online'))
  expect(queryClient.getQueryState(['persons', 'location', 'L1'])?.isInvalidated).toBe(true)
})

test('sign-out: the kept pages go, and nothing is kept after', async () => {
  keepQueries('u1')
  queryClient.setQueryData(['notes', 'person', 'p1'], ['n1'])
  await vi.advanceTimersByTimeAsync(2_000)
  await forgetQueries()
  expect(kept.size).toBe(0)
  queryClient.setQueryData(['notes', 'person', 'p1'], ['n2'])
  await vi.advanceTimersByTimeAsync(2_000)
  expect(kept.size).toBe(0)
})
