import { z } from 'zod'
import { isDay } from './days.ts'
import type { Subscription } from './location.ts'
import { da } from './messages/da.ts'

export * from './subscription-status.ts'

/** The subscription form: whole kroner ≥ 0, a start day and an end day not before it. */
export const SubscriptionFormSchema = z
  .object({
    // An empty field is no amount (not 0, as Number('') would have it).
    amount: z.preprocess(
      (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
      z.coerce.number({ error: da.admin.amountInvalid }).int(da.admin.amountWhole).min(0, da.admin.amountNegative),
    ),
    createdAt: z.string().refine(isDay, da.admin.dateRequired),
    validUntil: z.string().refine(isDay, da.admin.dateRequired),
  })
  .refine((value) => !isDay(value.createdAt) || !isDay(value.validUntil) || value.validUntil >= value.createdAt, {
    path: ['validUntil'],
    message: da.admin.validUntilBeforeStart,
    // Checked whenever both dates are days, also when the amount is wrong: every message at once.
    when: (payload) => payload.issues.every((issue) => issue.path?.[0] === 'amount'),
  })
export type SubscriptionForm = z.infer<typeof SubscriptionFormSchema>

/** A subscription as stored from the form: dates as ISO strings (SPEC §7), valid through the last day. */
export function subscriptionFromForm(form: SubscriptionForm): Subscription {
  return {
    amount: form.amount,
    createdAt: `${form.createdAt}T00:00:00.000Z`,
    validUntil: `${form.validUntil}T12:00:00.000Z`,
  }
}

/** One change of a subscription, kept in the location's visible history. */
export const SubscriptionChangeSchema = z.object({
  at: z.string(),
  by: z.string(),
  byName: z.string(),
  from: z.object({ amount: z.number(), validUntil: z.string() }).nullable(),
  to: z.object({ amount: z.number(), validUntil: z.string() }),
})
export type SubscriptionChange = z.infer<typeof SubscriptionChangeSchema>
