import { useQuery } from '@tanstack/react-query'

/**
 * For a unit test that replaces a feature's api module (`vi.mock`): its `useX` hook over the test's
 * fetcher, keyed with the feature's real key factory. A mocked module's own hook would still call
 * the real fetcher (ESM binds a module's calls to itself), so the test supplies both.
 */
export function queryHook<A extends unknown[], T>(
  key: (...args: A) => readonly unknown[],
  fetch: (...args: A) => Promise<T>,
): (...args: [...A, { enabled?: boolean }?]) => ReturnType<typeof useQuery<T>> {
  return (...args) => {
    const last = args.at(-1)
    const options =
      typeof last === 'object' && last !== null && 'enabled' in last ? (last as { enabled?: boolean }) : {}
    const own = args as unknown as A
    return useQuery({ queryKey: key(...own), queryFn: () => fetch(...own), ...options })
  }
}
