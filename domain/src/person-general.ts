import * as z from 'zod/mini'
import { da } from './messages/da.ts'
import { NewPersonSchema } from './person.ts'
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, NameSchema, PhoneSchema } from './validation.ts'

// A module of its own: only the person's Generelt page loads it (the web's shared domain chunks stay as they are).
/**
 * A person's Generelt settings as edited (persons/{id}: names, contact, locale, disabled): the same
 * name rules as a new person; the e-mail may be left empty here.
 */
export const PersonGeneralSchema = z.object({
  firstName: NewPersonSchema.shape.firstName,
  lastName: NameSchema,
  email: z.string().check(
    z.trim(),
    z.maxLength(EMAIL_MAX_LENGTH, da.validation.tooLong(EMAIL_MAX_LENGTH)),
    z.refine((value) => value === '' || EMAIL_PATTERN.test(value), da.validation.emailInvalid),
  ),
  phone: PhoneSchema,
  locale: z.string(),
  disabled: z.boolean(),
})
export type PersonGeneral = z.input<typeof PersonGeneralSchema>
