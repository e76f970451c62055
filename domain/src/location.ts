import { z } from 'zod'

export const SubscriptionSchema = z.object({
  amount: z.number().nonnegative(),
  createdAt: z.string(),
  validUntil: z.string(),
})
export type Subscription = z.infer<typeof SubscriptionSchema>

/**
 * What an admin turned on for a location (only admins write `settings.features`, firestore.rules):
 * registering answers, free-text diary entries, dictation, and whether dictation may use the browser
 * maker's cloud speech service where on-device recognition is not available (off by default: a
 * citizen's words stay on the device, ADR 0007).
 */
export const LocationFeaturesSchema = z.object({
  answers: z.boolean().default(true),
  freeText: z.boolean().default(true),
  dictation: z.boolean().default(true),
  cloudDictation: z.boolean().default(false),
})
export type LocationFeatures = z.infer<typeof LocationFeaturesSchema>
export const DEFAULT_LOCATION_FEATURES: LocationFeatures = {
  answers: true,
  freeText: true,
  dictation: true,
  cloudDictation: false,
}

/** locations/{id} */
export const LocationSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  name: z.string().min(1),
  logoUrl: z.string().nullable().default(null),
  persons: z.array(z.string()).default([]),
  settings: z
    .object({
      answerOptions: z.array(z.string()).default([]),
      subscription: SubscriptionSchema.nullable().default(null),
      notifications: z.object({ reminderTime: z.string().nullable() }).nullable().default(null),
      features: LocationFeaturesSchema.default(DEFAULT_LOCATION_FEATURES),
      /** Every change of the subscription: when, who, old → new (SubscriptionChangeSchema). */
      subscriptionHistory: z.array(z.record(z.string(), z.unknown())).default([]),
    })
    .default({
      answerOptions: [],
      subscription: null,
      notifications: null,
      features: DEFAULT_LOCATION_FEATURES,
      subscriptionHistory: [],
    }),
})
export type Location = z.infer<typeof LocationSchema>

export function isSubscriptionActive(subscription: Subscription | null, now: Date): boolean {
  return subscription !== null && new Date(subscription.validUntil).getTime() >= now.getTime()
}
