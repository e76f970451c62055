import '../../../test/setup.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { expect, test, vi } from 'vitest'
import type { AnswerOwner } from './answer-owner.ts'
import { useSaveAnswerOrder } from './save-answers.ts'

// Firestore is an edge here: the stored order is the one the editor saw, so the transaction writes.
vi.mock('../../../lib/firestore.ts', () => ({
  getDb: async () => ({}),
  firestoreLite: async () => ({
    doc: (_db: unknown, path: string) => path,
    runTransaction: async (_db: unknown, run: (transaction: unknown) => Promise<void>) =>
      run({ get: async () => ({ get: () => ['o1', 'o2'] }), update: () => {} }),
  }),
}))

/** A cache holding the user's locations list and another feature's query. */
function cache() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const keys = { locations: ['locations', 'list', 'a'], persons: ['persons', 'one', 'p1'] }
  for (const key of Object.values(keys)) client.setQueryData(key, 'cached')
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  )
  const stale = () =>
    Object.entries(keys)
      .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
      .map(([name]) => name)
  return { wrapper, stale }
}

async function reorder(owner: AnswerOwner) {
  const { wrapper, stale } = cache()
  const { result } = renderHook(() => useSaveAnswerOrder(owner), { wrapper })
  await result.current.mutateAsync({ order: ['o2', 'o1'], seen: ['o1', 'o2'] })
  return stale()
}

test("a location's new answer order reads the user's locations again (the register dialog reads it there)", async () => {
  expect(await reorder({ entity: 'location', id: 'a' })).toEqual(['locations'])
})

test("a person's new answer order leaves the locations list alone", async () => {
  expect(await reorder({ entity: 'person', id: 'p1' })).toEqual([])
})
