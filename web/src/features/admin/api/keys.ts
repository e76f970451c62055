import type { QueryRoot } from '../../../lib/query-roots.ts'

/** The admin feature's query keys: a change to any location invalidates `adminKeys.all`. */
export const adminKeys = {
  all: ['admin'] as const satisfies readonly [QueryRoot],
  overview: ['admin', 'overview'] as const,
  location: (locationId: string) => ['admin', 'location', locationId] as const,
}
