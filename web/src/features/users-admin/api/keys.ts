import type { QueryRoot } from '../../../lib/query-roots.ts'

/**
 * The users-admin feature's query keys, under the `staff` root it shares with the staff names the
 * care pages show: a change to a colleague invalidates `staffKeys.all`, and both follow.
 */
export const staffKeys = {
  all: ['staff'] as const satisfies readonly [QueryRoot],
  location: (locationId: string) => ['staff', 'location', locationId] as const,
}
