import type { QueryRoot } from '../../../lib/query-roots.ts'

/** The access-log feature's query keys (docs/decisions/0005-server-state.md), under its own root. */
export const accessLogKeys = {
  pages: (personId: string, filter: { from: string; to: string; actor: string; operation: string }) =>
    [
      'access-log' satisfies QueryRoot,
      'person',
      personId,
      filter.from,
      filter.to,
      filter.actor,
      filter.operation,
    ] as const,
  verify: ['access-log' satisfies QueryRoot, 'verify'] as const,
}
