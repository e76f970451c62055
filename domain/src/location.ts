import * as z from 'zod/mini'
import { DEFAULT_LOCATION_FEATURES } from './location-features.ts'

export * from './location-features.ts'

export const SubscriptionSchema = z.object({
  amount: z.number().check(z.nonnegative()),
  createdAt: z.string(),
  validUntil: z.string(),
})
export type Subscription = z.infer<typeof SubscriptionSchema>

/** What an admin turned on for a location, with its defaults (location-features.ts, zod-free). */
export const LocationFeaturesSchema = z.object({
  answers: z._default(z.boolean(), DEFAULT_LOCATION_FEATURES.answers),
  freeText: z._default(z.boolean(), DEFAULT_LOCATION_FEATURES.freeText),
  dictation: z._default(z.boolean(), DEFAULT_LOCATION_FEATURES.dictation),
  cloudDictation: z._default(z.boolean(), DEFAULT_LOCATION_FEATURES.cloudDictation),
})

/** locations/{id} */
export const LocationSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  name: z.string().check(z.minLength(1)),
  logoUrl: z._default(z.nullable(z.string()), null),
  persons: z._default(z.array(z.string()), []),
  settings: z._default(
    z.object({
      answerOptions: z._default(z.array(z.string()), []),
      subscription: z._default(z.nullable(SubscriptionSchema), null),
      notifications: z._default(z.nullable(z.object({ reminderTime: z.nullable(z.string()) })), null),
      features: z._default(LocationFeaturesSchema, DEFAULT_LOCATION_FEATURES),
      /** Every change of the subscription: when, who, old → new (SubscriptionChangeSchema). */
      subscriptionHistory: z._default(z.array(z.record(z.string(), z.unknown())), []),
    }),
    {
      answerOptions: [],
      subscription: null,
      notifications: null,
      features: DEFAULT_LOCATION_FEATURES,
      subscriptionHistory: [],
    },
  ),
})
export type Location = z.infer<typeof LocationSchema>

export function isSubscriptionActive(subscription: Subscription | null, now: Date): boolean {
  return subscription !== null && new Date(subscription.validUntil).getTime() >= now.getTime()
}
