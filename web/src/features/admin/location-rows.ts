import { type SubscriptionStatus, subscriptionStatus } from '@bosted/domain/subscription-status'
import type { AdminLocationRow } from './api/get-admin-overview.ts'

export type SortKey = 'name' | 'persons' | 'staff' | 'subscription'
export type Sort = { key: SortKey; direction: 'ascending' | 'descending' }

export type LocationRow = AdminLocationRow & { status: SubscriptionStatus }

const danish = new Intl.Collator('da-DK')

/** How soon a subscription needs attention: expired first, then expiring, active, none. */
function urgency(status: SubscriptionStatus): number {
  switch (status.kind) {
    case 'expired':
      return 0
    case 'expiring':
      return 1
    case 'active':
      return 2
    case 'none':
      return 3
  }
}

/** The admin index's rows with their subscription status, sorted by a column (names in Danish order). */
export function locationRows(locations: readonly AdminLocationRow[], sort: Sort, now: Date): LocationRow[] {
  const rows = locations.map((location) => ({
    ...location,
    status: subscriptionStatus(location.settings.subscription, now),
  }))
  const compare = (a: LocationRow, b: LocationRow): number => {
    switch (sort.key) {
      case 'name':
        return danish.compare(a.name, b.name)
      case 'persons':
        return a.personCount - b.personCount
      case 'staff':
        return a.staffCount - b.staffCount
      case 'subscription':
        return (
          urgency(a.status) - urgency(b.status) ||
          (a.status.kind === 'none' || b.status.kind === 'none'
            ? 0
            : a.status.validUntil.localeCompare(b.status.validUntil))
        )
    }
  }
  const sign = sort.direction === 'ascending' ? 1 : -1
  return rows.sort((a, b) => sign * compare(a, b) || danish.compare(a.name, b.name))
}

/** Whether a row needs attention: an expired subscription, or one ending within 30 days. */
export const needsAttention = (row: LocationRow) => row.status.kind === 'expired' || row.status.kind === 'expiring'
