import '../../../test/setup.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { expect, test, vi } from 'vitest'
import { apiSend } from '../../../lib/api-client.ts'
import { useMovePerson, useSetPersonSignIn } from './admin-person.ts'

vi.mock('../../../lib/api-client.ts', () => ({ apiSend: vi.fn(async () => {}) }))

/** A cache holding one query of each kind a move can or cannot touch. */
function cacheWithEveryKind() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const keys = {
    person: ['persons', 'one', 'p1'],
    persons: ['persons', 'location', 'a'],
    overview: ['admin', 'overview'],
    registrations: ['registrations', 'day', 'a', '2026-11-20'],
    notes: ['notes', 'day-counts', 'a', '2026-11-20'],
    staff: ['staff', 'location', 'a'],
    answers: ['answers', 'options', 'p1', 'a'],
  }
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

test('moving a person refreshes the persons, the admin overview and the records, not the staff or the options', async () => {
  const { wrapper, stale } = cacheWithEveryKind()
  const { result } = renderHook(() => useMovePerson('p1'), { wrapper })
  await result.current.mutateAsync('b')
  expect(apiSend).toHaveBeenCalledWith('/person/p1/location', { method: 'PUT', body: { locationId: 'b' } })
  expect(stale()).toEqual(['person', 'persons', 'overview', 'registrations', 'notes'])
})

test("turning a person's sign-in off refreshes the same data, also when the api refuses", async () => {
  vi.mocked(apiSend).mockRejectedValueOnce(Object.assign(new Error('refused'), { name: 'ApiError' }))
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const { wrapper, stale } = cacheWithEveryKind()
  const { result } = renderHook(() => useSetPersonSignIn('p1'), { wrapper })
  await expect(result.current.mutateAsync(true)).rejects.toThrow('refused')
  expect(apiSend).toHaveBeenCalledWith('/person/p1/disabled', { method: 'PUT', body: { disabled: true } })
  expect(stale()).toEqual(['person', 'persons', 'overview', 'registrations', 'notes'])
  expect(warn).toHaveBeenCalledWith("a person's sign-in could not be changed", 'ApiError')
  warn.mockRestore()
})
