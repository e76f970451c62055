import '../test/setup.ts'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, expect, test, vi } from 'vitest'
import type { Heard } from './live.ts'
import { liveOr, useLiveQuery, useLiveRefetch } from './live-query.ts'
import type { QuerySpec } from './query-spec.ts'

// The full SDK is the edge: each listener the hooks open is recorded, and the test speaks for the server.
type Opened = {
  spec: QuerySpec
  hear: (docs: string[], fromCache?: boolean) => void
  fail: (error: Error) => void
  stopped: boolean
}
const opened: Opened[] = []
vi.mock('./live.ts', () => ({
  listen: async (spec: QuerySpec, onDocs: (heard: Heard) => void, onError: (error: Error) => void) => {
    let isFirst = true
    const listener: Opened = {
      spec,
      hear: (ids, fromCache = false) => {
        onDocs({ docs: ids.map((id) => ({ id })) as unknown as Heard['docs'], isFirst, fromCache })
        isFirst = false
      },
      fail: onError,
      stopped: false,
    }
    opened.push(listener)
    return () => {
      listener.stopped = true
    }
  },
}))

afterEach(() => {
  opened.length = 0
})

const SPEC: QuerySpec = { source: 'group', path: 'registrations', parts: [] }
const ids = ({ docs }: Heard) => docs.map((doc) => doc.id)

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } })
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  )
  return { client, wrapper }
}

/** A query read through `liveOr`, as the api modules read theirs, and kept current by a listener. */
function useLiveList(key: string[], read: () => Promise<string[]>) {
  useLiveQuery(key, SPEC, ids)
  return useQuery({ queryKey: key, queryFn: () => liveOr(key, read) })
}

test("a listener's snapshots replace the query's data, each as it comes", async () => {
  const { wrapper } = setup()
  const { result } = renderHook(() => useLiveList(['day', 'a'], async () => ['r1']), { wrapper })
  await waitFor(() => expect(result.current.data).toEqual(['r1']))
  await waitFor(() => expect(opened).toHaveLength(1))
  opened[0]?.hear(['r1', 'r2'])
  await waitFor(() => expect(result.current.data).toEqual(['r1', 'r2']))
  opened[0]?.hear(['r2'])
  await waitFor(() => expect(result.current.data).toEqual(['r2']))
})

test('two views of one query share one listener, which ends when the last of them goes', async () => {
  const { wrapper } = setup()
  const first = renderHook(() => useLiveList(['day', 'b'], async () => []), { wrapper })
  const second = renderHook(() => useLiveList(['day', 'b'], async () => []), { wrapper })
  await waitFor(() => expect(opened).toHaveLength(1))
  first.unmount()
  await Promise.resolve()
  expect(opened[0]?.stopped).toBe(false)
  second.unmount()
  await waitFor(() => expect(opened[0]?.stopped).toBe(true))
})

test('a read that left before the listener heard from the server never replaces what it heard', async () => {
  const { wrapper } = setup()
  let answer: (value: string[]) => void = () => {}
  const slow = new Promise<string[]>((resolve) => {
    answer = resolve
  })
  const { result } = renderHook(() => useLiveList(['day', 'c'], () => slow), { wrapper })
  await waitFor(() => expect(opened).toHaveLength(1))
  opened[0]?.hear(['r1', 'colleague'])
  await waitFor(() => expect(result.current.data).toEqual(['r1', 'colleague']))
  answer(['r1'])
  await Promise.resolve()
  await new Promise((resolve) => setTimeout(resolve, 10))
  expect(result.current.data).toEqual(['r1', 'colleague'])
  // A refetch while the listener holds (a write's invalidation) reads: the user's own write shows
  // once saved, even if the listener were behind.
  expect(await liveOr(['day', 'c'], async () => ['r1', 'colleague', 'mine'])).toEqual(['r1', 'colleague', 'mine'])
})

test('a listener the rules refuse ends quietly: the page keeps its data and reads as before', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const { wrapper } = setup()
  const { result } = renderHook(() => useLiveList(['day', 'd'], async () => ['r1']), { wrapper })
  await waitFor(() => expect(opened).toHaveLength(1))
  opened[0]?.hear(['r1', 'r2'])
  await waitFor(() => expect(result.current.data).toEqual(['r1', 'r2']))
  opened[0]?.fail(Object.assign(new Error('Missing or insufficient permissions.'), { code: 'permission-denied' }))
  expect(warn).toHaveBeenCalledWith('a live listener ended', 'permission-denied')
  expect(result.current.data).toEqual(['r1', 'r2'])
  expect(await liveOr(['day', 'd'], async () => ['read again'])).toEqual(['read again'])
  warn.mockRestore()
})

test("a list read page by page is read again on each change after the listener's first snapshot", async () => {
  const { wrapper } = setup()
  const read = vi.fn(async () => ['n1'])
  const cached = vi.fn()
  renderHook(
    () => {
      useLiveRefetch(['notes', 'list'], SPEC, (heard) => cached(ids(heard)))
      return useQuery({ queryKey: ['notes', 'list'], queryFn: read })
    },
    { wrapper },
  )
  await waitFor(() => expect(read).toHaveBeenCalledTimes(1))
  await waitFor(() => expect(opened).toHaveLength(1))
  opened[0]?.hear(['n1'])
  await new Promise((resolve) => setTimeout(resolve, 10))
  expect(read).toHaveBeenCalledTimes(1)
  opened[0]?.hear(['n2', 'n1'])
  await waitFor(() => expect(read).toHaveBeenCalledTimes(2))
  // The user's own entry offline: from the device's cache, put in the list, not read from the server.
  opened[0]?.hear(['n3', 'n2', 'n1'], true)
  expect(cached).toHaveBeenCalledWith(['n3', 'n2', 'n1'])
  await new Promise((resolve) => setTimeout(resolve, 10))
  expect(read).toHaveBeenCalledTimes(2)
})

test('no spec, no listener', async () => {
  const { wrapper } = setup()
  renderHook(() => useLiveQuery(['day', 'e'], null, ids), { wrapper })
  await new Promise((resolve) => setTimeout(resolve, 10))
  expect(opened).toHaveLength(0)
})
