import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { queryClient } from './query-client.ts'

// IndexedDB is the edge: a map stands in for idb-keyval's store. Without IndexedDB (a private window),
// idb-keyval throws at once, as here when `noIndexedDb` is set.
const kept = new Map<string, unknown>()
let noIndexedDb = false
const device = <T>(use: () => T): Promise<T> => {
  if (noIndexedDb) throw new ReferenceError('indexedDB is not defined')
  return Promise.resolve(use())
}
vi.mock('idb-keyval', () => ({
  createStore: () => 'store',
  get: (key: string) => device(() => kept.get(key)),
  set: (key: string, value: unknown) => device(() => void kept.set(key, structuredClone(value))),
  del: (key: string) => device(() => void kept.delete(key)),
}))
const { forgetQueries, keepQueries, restoreQueries } = await import('./kept-queries.ts')

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(async () => {
  noIndexedDb = false
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

test('a device without IndexedDB: nothing is kept or restored, and nothing fails (the pages go on)', async () => {
  noIndexedDb = true
  const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {})
  keepQueries('u1')
  queryClient.setQueryData(['notes', 'person', 'p1'], ['n1'])
  await vi.advanceTimersByTimeAsync(2_000)
  expect(await restoreQueries('u1')).toBe(false)
  await expect(forgetQueries()).resolves.toBeUndefined()
  expect(kept.size).toBe(0)
  expect(warnings).toHaveBeenCalledWith('the pages could not be kept on the device', 'ReferenceError')
  warnings.mockRestore()
})
