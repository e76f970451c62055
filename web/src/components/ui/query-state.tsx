import { da } from '@bosted/domain/messages/da'
import type { ReactNode } from 'react'
import { useReportError } from '../../lib/report-error.ts'
import { Loading } from './loading.tsx'

/** What QueryState reads of a query (TanStack Query's `useQuery`/`useInfiniteQuery` results fit). */
export type QueryLike<T> = {
  data: T | undefined
  isError: boolean
  error: unknown
  refetch: () => unknown
  /** 'paused': waiting for a connection (TanStack Query's `fetchStatus`). */
  fetchStatus?: string
}

type Queries = QueryLike<unknown> | readonly QueryLike<unknown>[]
/** The data of each query, in order: what `children` receives once every query has some. */
export type QueryData<Q extends Queries> = Q extends readonly QueryLike<unknown>[]
  ? { -readonly [K in keyof Q]: Q[K] extends QueryLike<infer T> ? Exclude<T, undefined> : never }
  : Q extends QueryLike<infer T>
    ? [Exclude<T, undefined>]
    : never

type Props<Q extends Queries> = {
  /** One query, or several that the page needs together. */
  query: Q
  /** The notice when a query failed (`da.<page>.loadFailed`), or one chosen by the failure. */
  errorMessage: string | ((error: unknown) => string)
  /** Whether the notice offers "Prøv igen" for this failure (default: always). */
  canRetry?: (error: unknown) => boolean
  /** Logs a failure with this context (reportError), once per failure. */
  report?: string
  /** Shown while data is missing; by default "Indlæser …" (role=status). */
  loading?: ReactNode
  /** Whether the loaded data is empty, so `empty` is shown instead of `children`. */
  isEmpty?: (...data: QueryData<Q>) => boolean
  /** The empty state: a text becomes a notice paragraph. */
  empty?: ReactNode
  children: (...data: QueryData<Q>) => ReactNode
}

/**
 * A data page's states in one place: a failure (role=alert, with "Prøv igen" refetching what failed),
 * loading, empty, and then the page itself with the data of every query.
 *
 * ```tsx
 * <QueryState query={persons} errorMessage={da.notes.loadFailed} report="the persons could not be loaded"
 *   isEmpty={(list) => list.length === 0} empty={da.notes.noPersons}>
 *   {(list) => <PersonList persons={list} />}
 * </QueryState>
 * ```
 */
export function QueryState<const Q extends Queries>({
  query,
  errorMessage,
  canRetry,
  report,
  loading,
  isEmpty,
  empty,
  children,
}: Props<Q>) {
  const queries: readonly QueryLike<unknown>[] = isQueryList(query) ? query : [query]
  const failed = queries.filter((each) => each.isError)
  const error = failed[0]?.error
  useReportError(report ?? '', report === undefined ? null : error)

  if (failed.length > 0) {
    const message = typeof errorMessage === 'string' ? errorMessage : errorMessage(error)
    return (
      <div className="notice notice--error" role="alert">
        <p>{message}</p>
        {(canRetry?.(error) ?? true) && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              for (const each of failed) void each.refetch()
            }}
          >
            {da.shell.retry}
          </button>
        )}
      </div>
    )
  }
  const missing = queries.filter((each) => each.data === undefined)
  // Never read and no connection to read it with: said so, not an endless "Indlæser …" (ADR 0034).
  if (missing.some((each) => each.fetchStatus === 'paused')) return <p className="notice">{da.shell.offlineNotRead}</p>
  if (missing.length > 0) return loading ?? <Loading />
  const data = queries.map((each) => each.data) as QueryData<Q>
  if (isEmpty?.(...data) === true && empty !== undefined)
    return typeof empty === 'string' ? <p className="notice">{empty}</p> : empty
  return children(...data)
}

function isQueryList(query: Queries): query is readonly QueryLike<unknown>[] {
  return Array.isArray(query)
}
