import type { QueryRoot } from '../../../lib/query-roots.ts'

/**
 * Statistik's query keys (docs/decisions/0005-server-state.md): its data (registrations and diary
 * entries of a period) lives under the `registrations` root, so a registration write reaches it too.
 */
export const statisticsKeys = {
  period: (locationId: string, from: string, to: string) =>
    ['registrations' satisfies QueryRoot, 'statistics', locationId, from, to] as const,
}
