import { isDuplicateAnswer } from '@bosted/domain/answer'
import { parseDanishNumber } from '@bosted/domain/danish-format'
import { da } from '@bosted/domain/messages/da'
import { NewPersonSchema } from '@bosted/domain/person'
import { AnswerTextSchema, EmailSchema, NameSchema, PasswordSchema, PhoneSchema } from '@bosted/domain/validation'
import * as z from 'zod/mini'

/** A new answer option as typed: the value stays text until it is saved as a number. */
export const AnswerDraftSchema = z.object({
  text: z.pipe(AnswerTextSchema, z.string().check(z.minLength(1, da.form.answerTextRequired))),
  value: z.string().check(
    z.trim(),
    z.refine((value) => parseDanishNumber(value).ok, da.form.answerValueNumber),
  ),
})
export type AnswerDraft = z.infer<typeof AnswerDraftSchema>

/** 'HH:MM', or empty for no reminder. */
export const ReminderTimeSchema = z.string().check(z.regex(/^(|([01]\d|2[0-3]):[0-5]\d)$/, da.form.reminderTimeInvalid))

export const FeaturesSchema = z.object({
  all: z.boolean(),
  answers: z.boolean(),
  freeText: z.boolean(),
  speechToText: z.boolean(),
})
export type Features = z.infer<typeof FeaturesSchema>

/** The person creation form over its three steps; the general step's rules are the domain's (REQ-VALID). */
export const PersonFormSchema = z.object({
  firstName: NewPersonSchema.shape.firstName,
  lastName: NameSchema,
  email: EmailSchema,
  password: PasswordSchema,
  phone: PhoneSchema,
  // The same text and value twice is refused on the later one (staff could not tell them apart).
  answers: z.array(AnswerDraftSchema).check(
    z.superRefine((drafts, context) => {
      // Only values that read as numbers compare (the others have their own message).
      const values = drafts.map((draft) => parseDanishNumber(draft.value))
      drafts.forEach((draft, index) => {
        const value = values[index]
        if (!value?.ok) return
        const earlier = drafts.slice(0, index).flatMap((other, at) => {
          const parsed = values[at]
          return parsed?.ok ? [{ id: String(at), text: other.text, value: parsed.value }] : []
        })
        if (isDuplicateAnswer(earlier, { text: draft.text, value: value.value }))
          context.addIssue({ code: 'custom', path: [index, 'text'], message: da.form.answerDuplicate })
      })
    }),
  ),
  includePlaceAnswers: z.boolean(),
  features: FeaturesSchema,
  disabled: z.boolean(),
  reminderTime: ReminderTimeSchema,
})
export type PersonForm = z.input<typeof PersonFormSchema>
export type ValidPersonForm = z.output<typeof PersonFormSchema>

export const EMPTY_PERSON_FORM: PersonForm = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  phone: '',
  answers: [],
  includePlaceAnswers: true,
  features: { all: false, answers: false, freeText: false, speechToText: false },
  disabled: false,
  reminderTime: '',
}

/** The fields of each step, so an invalid submit can send the user to the step that needs them. */
export const GENERAL_FIELDS = ['firstName', 'lastName', 'email', 'password', 'phone'] as const

/** An answer value as typed ('2,5') as the number it is saved as. */
export function answerValue(value: string): number {
  const parsed = parseDanishNumber(value)
  if (!parsed.ok) throw new Error(parsed.message)
  return parsed.value
}

const SINGLE_FEATURES = ['answers', 'freeText', 'speechToText'] as const

/**
 * A feature switched on or off: `all` sets the other three; the three all on means `all`, and
 * switching one of them off clears `all`.
 */
export function toggleFeature(features: Features, name: keyof Features, checked: boolean): Features {
  if (name === 'all') return { all: checked, answers: checked, freeText: checked, speechToText: checked }
  const next = { ...features, [name]: checked }
  return { ...next, all: SINGLE_FEATURES.every((feature) => next[feature]) }
}
