import * as z from 'zod/mini'
import { da } from './messages/da.ts'

export const PASSWORD_MIN_LENGTH = 6
/**
 * Firebase's upper bound (the longest password its SDKs accept): every password production takes
 * is taken here, and a 10 KB body of "password" is refused before it reaches Auth.
 */
export const PASSWORD_MAX_LENGTH = 4096
export const PERSON_FIRST_NAME_MIN_LENGTH = 2
/** A first or last name's bound, as firestore.rules has it (100). */
export const NAME_MAX_LENGTH = 100
/** A job title's bound, as firestore.rules has it (100). */
export const JOB_ROLE_MAX_LENGTH = 100
/** RFC 5321's longest address. */
export const EMAIL_MAX_LENGTH = 254
export const PHONE_MAX_LENGTH = 40
/** A location's name, as firestore.rules has it (200). */
export const LOCATION_NAME_MAX_LENGTH = 200
/** An answer option's text, as firestore.rules has it (200). */
export const ANSWER_TEXT_MAX_LENGTH = 200
/** The api's bound on a display name (first and last name with a space between). */
export const DISPLAY_NAME_MAX_LENGTH = 256
/** The spec's "simple pattern": something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * What a name shown to colleagues must not contain: control characters (C0 with NUL, DEL, C1),
 * zero-width characters (U+200B–U+200D, U+FEFF) and bidi overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), which hide or reorder what is displayed.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
export const HIDDEN_NAME_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u200B-\u200D\u202A-\u202E\u2066-\u2069\uFEFF]/

const visibleName = z.string().check(
  z.trim(),
  z.refine((value) => !HIDDEN_NAME_CHARACTERS.test(value), da.validation.nameInvalidCharacters),
)
/** A first or last name as typed: trimmed, without hidden characters, at most NAME_MAX_LENGTH. */
export const NameSchema = z.pipe(
  visibleName,
  z.string().check(z.maxLength(NAME_MAX_LENGTH, da.validation.tooLong(NAME_MAX_LENGTH))),
)
/** The api's display name (first and last name together). */
export const DisplayNameSchema = z.pipe(
  visibleName,
  z
    .string()
    .check(z.minLength(1), z.maxLength(DISPLAY_NAME_MAX_LENGTH, da.validation.tooLong(DISPLAY_NAME_MAX_LENGTH))),
)
export const FirstNameSchema = z.pipe(NameSchema, z.string().check(z.minLength(1, da.validation.firstNameRequired)))
export const EmailSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, da.validation.emailRequired),
    z.maxLength(EMAIL_MAX_LENGTH, da.validation.tooLong(EMAIL_MAX_LENGTH)),
    z.regex(EMAIL_PATTERN, da.validation.emailInvalid),
  )
/** A text field as typed: trimmed, at most `max` characters. */
const boundedText = (max: number) => z.string().check(z.trim(), z.maxLength(max, da.validation.tooLong(max)))
export const PhoneSchema = boundedText(PHONE_MAX_LENGTH)
export const JobRoleSchema = boundedText(JOB_ROLE_MAX_LENGTH)
export const LocationNameSchema = boundedText(LOCATION_NAME_MAX_LENGTH)
export const AnswerTextSchema = boundedText(ANSWER_TEXT_MAX_LENGTH)
export const PasswordSchema = z.string().check(
  z.minLength(1, da.validation.passwordRequired),
  z.minLength(PASSWORD_MIN_LENGTH, da.validation.passwordTooShort),
  z.maxLength(PASSWORD_MAX_LENGTH, da.validation.passwordTooLong),
  // Six spaces are no password (the spaces of a real one are kept: it is never trimmed).
  z.refine((value) => value.length === 0 || value.trim().length > 0, da.validation.passwordBlank),
)

/** 'Required fields present' (REQ-VALID-5): first name, email and password are all non-blank. */
export function hasRequiredFields(draft: { firstName?: string; email?: string; password?: string }): boolean {
  return [draft.firstName, draft.email, draft.password].every((value) => (value ?? '').trim().length > 0)
}
