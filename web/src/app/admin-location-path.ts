import { isId } from '../lib/route-errors.ts'

export const ADMIN_LOCATION_TABS = ['general', 'features', 'subscription'] as const
export type AdminLocationTab = (typeof ADMIN_LOCATION_TABS)[number]

/**
 * /admin/location/{id}[/{tab}]: the id may span several path segments, so the tab is recognised as
 * the last segment when it names a tab. `null` when the id is missing or has a bad segment.
 */
export function parseAdminLocationPath(splat: string | undefined): { id: string; tab: AdminLocationTab } | null {
  const segments = (splat ?? '').split('/').filter((segment) => segment !== '')
  const last = segments.at(-1)
  const tab = ADMIN_LOCATION_TABS.find((name) => name === last)
  const idSegments = tab === undefined ? segments : segments.slice(0, -1)
  if (idSegments.length === 0 || !idSegments.every((segment) => isId(segment))) return null
  return { id: idSegments.join('/'), tab: tab ?? 'general' }
}
