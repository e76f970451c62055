import type { QueryRoot } from '../../../lib/query-roots.ts'

/**
 * The persons feature's query keys (docs/decisions/0005-server-state.md): one factory, so a write
 * invalidates by prefix — `personKeys.all` reaches every person and every location's list.
 */
export const personKeys = {
  all: ['persons'] as const satisfies readonly [QueryRoot],
  one: (personId: string) => ['persons', 'one', personId] as const,
  location: (locationId: string) => ['persons', 'location', locationId] as const,
}
