import { QueryClient } from '@tanstack/react-query'

/**
 * The one cache of server data (docs/decisions/0005-server-state.md). Loaded with the signed-in
 * shell, so the sign-in page carries none of it; cleared at sign-out so no care data outlives a session.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A denied read or a document that fails its schema does not get better by retrying.
      retry: (failureCount, error) => failureCount < 2 && !isPermanent(error),
      refetchOnWindowFocus: true,
    },
  },
})

/** The name of the error a domain schema (zod/mini) throws; by name, so this chunk carries no zod. */
const SCHEMA_ERROR_NAME = '$ZodError'

function isPermanent(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'permission-denied' || code === 'not-found' || (error as Error | null)?.name === SCHEMA_ERROR_NAME
}

/**
 * For route loaders (outside React): a query's data, from the cache while fresh, else read (a
 * feature's `xQueryOptions(…)` says which).
 */
export const fetchQuery = queryClient.fetchQuery.bind(queryClient)
