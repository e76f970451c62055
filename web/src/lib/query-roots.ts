import type { QueryClient } from '@tanstack/react-query'

/**
 * The first element of every query key (docs/decisions/0005-server-state.md). Each feature builds its
 * keys under its root in its own `api/keys.ts`; a write whose effect reaches another feature's data
 * (moving a person changes the registrations and notes a location sees) invalidates that feature's
 * root from here, since one feature never imports another.
 */
export type QueryRoot =
  | 'access-log'
  | 'admin'
  | 'answers'
  | 'locations'
  | 'notes'
  | 'persons'
  | 'registrations'
  | 'staff'

/** Marks every query under the given roots stale; the ones on screen are fetched again. */
export function invalidateRoots(queryClient: QueryClient, roots: readonly QueryRoot[]): Promise<unknown> {
  return Promise.all(roots.map((root) => queryClient.invalidateQueries({ queryKey: [root] })))
}
