import * as z from 'zod/mini'
import { da } from './messages/da.ts'
import { EmailSchema, FirstNameSchema, NameSchema, PasswordSchema, PERSON_FIRST_NAME_MIN_LENGTH } from './validation.ts'

export const DEFAULT_LOCALE = 'da'

export const ContactSchema = z.object({
  email: z._default(z.nullable(z.string()), null),
  phone: z._default(z.nullable(z.string()), null),
})
export type Contact = z.infer<typeof ContactSchema>

export const PersonFeaturesSchema = z.object({
  all: z._default(z.boolean(), false),
  freeText: z._default(z.boolean(), false),
  speechToText: z._default(z.boolean(), false),
  answers: z._default(z.boolean(), false),
})
export type PersonFeatures = z.infer<typeof PersonFeaturesSchema>

/** Daily reminder time 'HH:MM' (ADR 0024), or null when off. */
export const NotificationsSchema = z.nullable(
  z.object({ reminderTime: z.nullable(z.string().check(z.regex(/^\d{2}:\d{2}$/))) }),
)

export const PersonSettingsSchema = z.object({
  answerOptions: z._default(z.array(z.string()), []),
  disabled: z._default(z.boolean(), false),
  includePlaceAnswers: z._default(z.boolean(), true),
  features: z._default(PersonFeaturesSchema, PersonFeaturesSchema.parse({})),
  notifications: z._default(NotificationsSchema, null),
})
export type PersonSettings = z.infer<typeof PersonSettingsSchema>

/** REQ-PERSON-2's defaults for a person's names: 'Ikke' 'Angivet' (not stated). */
export const PERSON_DEFAULT_FIRST_NAME = 'Ikke'
export const PERSON_DEFAULT_LAST_NAME = 'Angivet'

/** A name as saved: what was typed, trimmed, or the default when nothing (or only spaces) was typed. */
export function nameOrDefault(value: string | null | undefined, fallback: string): string {
  const trimmed = (value ?? '').trim()
  return trimmed === '' ? fallback : trimmed
}

/** A stored name: missing, null, empty or blank reads as the default. */
const defaultedName = (fallback: string) =>
  z.pipe(
    z.nullish(z.string()),
    z.transform((value) => ((value ?? '').trim() === '' ? fallback : (value as string))),
  )

/** persons/{id}; id equals the auth uid. Parsing `{}` yields every default of REQ-PERSON. */
export const PersonSchema = z.object({
  id: z.string(),
  firstName: defaultedName(PERSON_DEFAULT_FIRST_NAME),
  lastName: defaultedName(PERSON_DEFAULT_LAST_NAME),
  createdAt: z.string(),
  avatarUrl: z._default(z.nullable(z.string()), null),
  contact: z._default(z.nullable(ContactSchema), null),
  settings: z._default(PersonSettingsSchema, PersonSettingsSchema.parse({})),
  locale: z._default(z.string(), DEFAULT_LOCALE),
  /**
   * The location whose persons[] holds this person, kept on the person so that security rules can
   * decide reads and list queries (`where locationId == …`) without knowing the location first.
   */
  locationId: z._default(z.nullable(z.string()), null),
})
export type Person = z.infer<typeof PersonSchema>

/**
 * What the app changes of persons/{id} in one update (REQ-DATA-4's person update): top-level fields, and
 * settings by dotted path so the other settings stay as they are.
 */
export type PersonUpdate = Partial<Pick<Person, 'firstName' | 'lastName' | 'contact' | 'locale' | 'avatarUrl'>> & {
  'settings.disabled'?: PersonSettings['disabled']
  'settings.features'?: PersonSettings['features']
  'settings.includePlaceAnswers'?: PersonSettings['includePlaceAnswers']
  'settings.notifications'?: PersonSettings['notifications']
}

/** The person creation draft (REQ-MODEL-1, REQ-VALID-4): a person form is valid only with a first name of ≥ 2 characters. */
export const NewPersonSchema = z.object({
  firstName: z.pipe(
    FirstNameSchema,
    z.string().check(z.minLength(PERSON_FIRST_NAME_MIN_LENGTH, da.validation.firstNameTooShort)),
  ),
  lastName: z._default(NameSchema, ''),
  email: EmailSchema,
  password: PasswordSchema,
})
export type NewPerson = z.infer<typeof NewPersonSchema>
