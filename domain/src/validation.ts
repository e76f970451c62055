import { z } from 'zod'
import { da } from './messages/da.ts'

export const PASSWORD_MIN_LENGTH = 6
export const PERSON_FIRST_NAME_MIN_LENGTH = 2
/** The spec's "simple pattern": something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const FirstNameSchema = z.string().trim().min(1, da.validation.firstNameRequired)
export const EmailSchema = z
  .string()
  .trim()
  .min(1, da.validation.emailRequired)
  .regex(EMAIL_PATTERN, da.validation.emailInvalid)
export const PasswordSchema = z
  .string()
  .min(1, da.validation.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, da.validation.passwordTooShort)

/** 'Required fields present' (SPEC §5): first name, email and password are all non-blank. */
export function hasRequiredFields(draft: { firstName?: string; email?: string; password?: string }): boolean {
  return [draft.firstName, draft.email, draft.password].every((value) => (value ?? '').trim().length > 0)
}
