// A location's subscription status, without zod (the signed-in shell shows it in a banner).
import { dayOf } from './days.ts'
import { da } from './messages/da.ts'

/** The subscription as stored (settings.subscription): validUntil is an ISO string. */
type Subscription = { validUntil: string }

/** A subscription ending within this many days is highlighted as soon to expire. */
export const SUBSCRIPTION_WARNING_DAYS = 30

export type SubscriptionStatus =
  | { kind: 'none' }
  | { kind: 'active'; validUntil: string }
  | { kind: 'expiring'; validUntil: string; daysLeft: number }
  | { kind: 'expired'; validUntil: string }

const dayCount = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)

/**
 * A subscription's status on a (Copenhagen) day: valid through its validUntil day, expiring when that
 * is at most SUBSCRIPTION_WARNING_DAYS away, expired from the day after.
 */
export function subscriptionStatus(subscription: Subscription | null | undefined, now: Date): SubscriptionStatus {
  if (subscription == null) return { kind: 'none' }
  const today = dayOf(now)
  const validUntil = dayOf(new Date(subscription.validUntil))
  const daysLeft = dayCount(today, validUntil)
  if (daysLeft < 0) return { kind: 'expired', validUntil }
  if (daysLeft <= SUBSCRIPTION_WARNING_DAYS) return { kind: 'expiring', validUntil, daysLeft }
  return { kind: 'active', validUntil }
}

/** 'DD.MM.YYYY', as Danish administrators write dates. */
export const formatDanishDate = (day: string): string => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`

/** The status as the admin pages show it: "Aktiv til 31.12.2026", "Udløber om 12 dage", … */
export function subscriptionLabel(status: SubscriptionStatus): string {
  switch (status.kind) {
    case 'none':
      return da.admin.subscriptionNone
    case 'active':
      return da.admin.subscriptionActive(formatDanishDate(status.validUntil))
    case 'expiring':
      return da.admin.subscriptionExpiring(status.daysLeft)
    case 'expired':
      return da.admin.subscriptionExpired(formatDanishDate(status.validUntil))
  }
}
