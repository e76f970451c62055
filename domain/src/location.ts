import { z } from 'zod'
import { DEFAULT_LOCATION_FEATURES } from './location-features.ts'

export * from './location-features.ts'

export const SubscriptionSchema = z.object({
  amount: z.number().nonnegative(),
  createdAt: z.string(),
  validUntil: z.string(),
})
export type Subscription = z.infer<typeof SubscriptionSchema>

/** What an admin turned on for a location, with its defaults (location-features.ts, zod-free). */
export const LocationFeaturesSchema = z.object({
  answers: z.boolean().default(DEFAULT_LOCATION_FEATURES.answers),
  freeText: z.boolean().default(DEFAULT_LOCATION_FEATURES.freeText),
  dictation: z.boolean().default(DEFAULT_LOCATION_FEATURES.dictation),
  cloudDictation: z.boolean().default(DEFAULT_LOCATION_FEATURES.cloudDictation),
})

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
