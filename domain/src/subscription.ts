import * as z from 'zod/mini'
import { NUMBER_MESSAGES, parseDanishNumber } from './danish-format.ts'
import { isDay } from './days.ts'
import type { Subscription } from './location.ts'
import { da } from './messages/da.ts'

export * from './subscription-status.ts'

/** The largest yearly amount the form takes (kroner). */
export const SUBSCRIPTION_AMOUNT_MAX = 100_000_000

/** Kroner typed the Danish way ('1.500', '1500,50'), at most two decimals (øre); an empty field is no amount. */
const AmountSchema = z.pipe(
  z.pipe(
    z.union([z.string(), z.number()]),
    z.transform((value, context) => {
      if (typeof value === 'number') return value
      const parsed = parseDanishNumber(value, { maximumFractionDigits: 2 })
      if (parsed.ok) return parsed.value
      const message = parsed.message === NUMBER_MESSAGES.invalid ? da.admin.amountInvalid : da.admin.amountWhole
      context.issues.push({ code: 'custom', message, input: value })
      return z.NEVER
    }),
  ),
  z.number().check(z.minimum(0, da.admin.amountNegative), z.maximum(SUBSCRIPTION_AMOUNT_MAX, da.admin.amountTooLarge)),
)

/** The subscription form: kroner ≥ 0 with at most two decimals, a start day and an end day not before it. */
export const SubscriptionFormSchema = z
  .object({
    amount: AmountSchema,
    createdAt: z.string().check(z.refine(isDay, da.admin.dateRequired)),
    validUntil: z.string().check(z.refine(isDay, da.admin.dateRequired)),
  })
  .check(
    z.refine((value) => !isDay(value.createdAt) || !isDay(value.validUntil) || value.validUntil >= value.createdAt, {
      path: ['validUntil'],
      message: da.admin.validUntilBeforeStart,
      // Checked whenever both dates are days, also when the amount is wrong: every message at once.
      when: (payload) => payload.issues.every((issue) => issue.path?.[0] === 'amount'),
    }),
  )
export type SubscriptionForm = z.infer<typeof SubscriptionFormSchema>

/** A subscription as stored from the form: dates as ISO strings (REQ-DATA-3), valid through the last day. */
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
  from: z.nullable(z.object({ amount: z.number(), validUntil: z.string() })),
  to: z.object({ amount: z.number(), validUntil: z.string() }),
})
export type SubscriptionChange = z.infer<typeof SubscriptionChangeSchema>
