import { z } from 'zod'

export const SubscriptionSchema = z.object({
  amount: z.number().nonnegative(),
  createdAt: z.string(),
  validUntil: z.string(),
})
export type Subscription = z.infer<typeof SubscriptionSchema>

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
      /**
       * What an admin turned on for the location (only admins write it, firestore.rules).
       * cloudDictation: dictation may use the browser maker's cloud speech service where on-device
       * recognition is not available (off by default: a citizen's words stay on the device).
       */
      features: z.object({ cloudDictation: z.boolean().default(false) }).default({ cloudDictation: false }),
    })
    .default({ answerOptions: [], subscription: null, notifications: null, features: { cloudDictation: false } }),
})
export type Location = z.infer<typeof LocationSchema>

export function isSubscriptionActive(subscription: Subscription | null, now: Date): boolean {
  return subscription !== null && new Date(subscription.validUntil).getTime() >= now.getTime()
}
