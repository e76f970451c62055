import { z } from 'zod'
import { da } from './messages/da.ts'

export const PASSWORD_MIN_LENGTH = 6
/**
 * Firebase's upper bound (the longest password its SDKs accept): every password production takes
 * is taken here, and a 10 KB body of "password" is refused before it reaches Auth.
 */
export const PASSWORD_MAX_LENGTH = 4096
export const PERSON_FIRST_NAME_MIN_LENGTH = 2
/** A first or a last name's bound, as firestore.rules has it (`isName`). */
export const NAME_MAX_LENGTH = 100
/**
 * A full name ("first last") stored beside what someone wrote (a diary entry's authorName, a
 * registration's createdByName, a correction's or deletion's byName), as firestore.rules bounds it.
 */
export const FULL_NAME_MAX_LENGTH = 2 * NAME_MAX_LENGTH + 1
/** Contact fields' bounds, as firestore.rules has them (an address is at most 254 characters, RFC 5321). */
export const EMAIL_MAX_LENGTH = 254
export const PHONE_MAX_LENGTH = 40
/** The spec's "simple pattern": something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * What a name shown to colleagues must not contain: control characters (C0 with NUL, DEL, C1),
 * zero-width characters (U+200B–U+200D, U+FEFF) and bidi overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), which hide or reorder what is displayed.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
export const HIDDEN_NAME_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u200B-\u200D\u202A-\u202E\u2066-\u2069\uFEFF]/

/** A name (first, last, display) as typed: trimmed, without hidden characters. */
export const NameSchema = z
  .string()
  .trim()
  .refine((value) => !HIDDEN_NAME_CHARACTERS.test(value), da.validation.nameInvalidCharacters)
/** A first or last name kept in Firestore: at most NAME_MAX_LENGTH characters (firestore.rules refuses more). */
export const NamePartSchema = NameSchema.pipe(
  z.string().max(NAME_MAX_LENGTH, da.validation.nameTooLong(NAME_MAX_LENGTH)),
)
export const FirstNameSchema = NamePartSchema.pipe(z.string().min(1, da.validation.firstNameRequired))
export const EmailSchema = z
  .string()
  .trim()
  .min(1, da.validation.emailRequired)
  .max(EMAIL_MAX_LENGTH, da.validation.emailInvalid)
  .regex(EMAIL_PATTERN, da.validation.emailInvalid)
/** A phone number as typed (optional): trimmed, at most PHONE_MAX_LENGTH characters. */
export const PhoneSchema = z.string().trim().max(PHONE_MAX_LENGTH, da.validation.phoneTooLong(PHONE_MAX_LENGTH))
export const PasswordSchema = z
  .string()
  .min(1, da.validation.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, da.validation.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, da.validation.passwordTooLong)
  // Six spaces are no password (the spaces of a real one are kept: it is never trimmed).
  .refine((value) => value.length === 0 || value.trim().length > 0, da.validation.passwordBlank)

/** 'Required fields present' (SPEC §5): first name, email and password are all non-blank. */
export function hasRequiredFields(draft: { firstName?: string; email?: string; password?: string }): boolean {
  return [draft.firstName, draft.email, draft.password].every((value) => (value ?? '').trim().length > 0)
}
