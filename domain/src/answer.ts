import * as z from 'zod/mini'
import { dayOf } from './days.ts'
import { da } from './messages/da.ts'

export const ANSWER_ENTITIES = ['person', 'location'] as const
export type AnswerEntity = (typeof ANSWER_ENTITIES)[number]

/** An answer option (persons/{id}/answers, locations/{id}/answers). */
export const AnswerSchema = z.object({
  id: z.string(),
  text: z.string(),
  value: z.number(),
  hidden: z._default(z.boolean(), false),
  entity: z.enum(ANSWER_ENTITIES),
  createdAt: z.string(),
})
export type Answer = z.infer<typeof AnswerSchema>

/**
 * Whether `input` repeats an option of `options` (other than `exceptId`, the one being edited): the
 * same text — ignoring case and surrounding spaces — and the same value. One owner (a person, a
 * location) never has two such options: staff could not tell them apart when registering.
 */
export function isDuplicateAnswer(
  options: readonly Pick<Answer, 'id' | 'text' | 'value'>[],
  input: { text: string; value: number },
  exceptId?: string,
): boolean {
  const text = input.text.trim().toLocaleLowerCase('da')
  return options.some(
    (option) =>
      option.id !== exceptId && option.value === input.value && option.text.trim().toLocaleLowerCase('da') === text,
  )
}

export const PersonAnswerSchema = z.extend(AnswerSchema, { entity: z._default(z.enum(ANSWER_ENTITIES), 'person') })
export const LocationAnswerSchema = z.extend(AnswerSchema, { entity: z._default(z.enum(ANSWER_ENTITIES), 'location') })

const DaySchema = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))

/**
 * Whether a care record (registration, diary entry) may carry `day` at `now`: a day that has begun in
 * Copenhagen — today or earlier (backdating is allowed), never a day still to come. firestore.rules
 * refuses the same (with up to an hour's leeway around midnight, as it knows no time zone).
 */
export function isCareDayAllowed(day: string, now: Date): boolean {
  return day <= dayOf(now)
}

/**
 * Care records (registrations, notes) carry their person and that person's location, so a
 * location's records are one collection-group query (`where locationId == …`) that the security
 * rules can allow (docs/decisions/0004-access-model.md).
 */
const CareRecordSchema = z.object({
  personId: z.string(),
  locationId: z.string(),
  day: DaySchema,
  createdAt: z.string(),
  createdBy: z.string(),
})

/** A registration: an answer given on a day (persons/{id}/registrations/{rid}). */
export const RegistrationSchema = z.extend(CareRecordSchema, {
  answerId: z.string(),
  text: z.string(),
  value: z.number(),
  entity: z.enum(ANSWER_ENTITIES),
  comment: z.optional(z.string()),
  /** The author's name when it was written, so lists need no read of the staff documents. */
  createdByName: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
  updatedBy: z.optional(z.string()),
})
export type Registration = z.infer<typeof RegistrationSchema>

/** A registration comment's bound, as firestore.rules has it. */
export const REGISTRATION_COMMENT_MAX_LENGTH = 500

/** The register dialog's form: one of the person's options, and an optional bounded comment. */
export const RegistrationFormSchema = z.object({
  // Nothing chosen yet is null (the dialog's start): the same Danish message as an empty choice.
  answerId: z.string({ error: da.registration.answerRequired }).check(z.minLength(1, da.registration.answerRequired)),
  comment: z
    .string()
    .check(
      z.trim(),
      z.maxLength(REGISTRATION_COMMENT_MAX_LENGTH, da.registration.commentTooLong(REGISTRATION_COMMENT_MAX_LENGTH)),
    ),
})
export type RegistrationForm = z.infer<typeof RegistrationFormSchema>

/** An earlier text of a corrected diary entry: the text as it was, and who replaced it when. */
export const NoteRevisionSchema = z.object({ text: z.string(), at: z.string(), by: z.string(), byName: z.string() })
export type NoteRevision = z.infer<typeof NoteRevisionSchema>

/** The marker a deleted diary entry keeps in place of its text: a care record is never erased. */
export const NoteDeletionSchema = z.object({ at: z.string(), by: z.string(), byName: z.string(), reason: z.string() })
export type NoteDeletion = z.infer<typeof NoteDeletionSchema>

/** A diary entry (persons/{id}/notes/{nid}). */
export const NoteSchema = z.extend(CareRecordSchema, {
  text: z.string().check(z.minLength(1)),
  source: z.enum(['keyboard', 'speech']),
  authorName: z.string(),
  revisions: z.optional(z.array(NoteRevisionSchema)),
  deleted: z.optional(NoteDeletionSchema),
})
export type Note = z.infer<typeof NoteSchema>

/** A diary entry's bound, as firestore.rules has it. */
export const NOTE_MAX_LENGTH = 5000
/**
 * How many times an entry can be corrected, as firestore.rules has it: 50 earlier texts of 5,000
 * characters stay within Firestore's 1 MiB per document.
 */
export const NOTE_MAX_REVISIONS = 50
/** A deletion reason's bound, as firestore.rules has it. */
export const NOTE_REASON_MAX_LENGTH = 500

/** The diary editor's text: required after trimming, at most NOTE_MAX_LENGTH characters. */
export const NoteTextSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, da.notes.textRequired),
    z.maxLength(NOTE_MAX_LENGTH, da.notes.textTooLong(NOTE_MAX_LENGTH)),
  )

/** Why an entry is deleted: required, bounded; it stays visible in the entry's place. */
export const NoteDeletionReasonSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, da.notes.reasonRequired),
    z.maxLength(NOTE_REASON_MAX_LENGTH, da.registration.commentTooLong(NOTE_REASON_MAX_LENGTH)),
  )

/**
 * The spec's migration of a location's answers: fills a missing entity ('location'), hidden (false)
 * and createdAt; returns only the fields that were missing, so complete answers need no write.
 */
export function missingLocationAnswerFields(
  answer: Record<string, unknown>,
  now: string,
): Partial<Pick<Answer, 'entity' | 'hidden' | 'createdAt'>> {
  const patch: Partial<Pick<Answer, 'entity' | 'hidden' | 'createdAt'>> = {}
  if (answer.entity === undefined || answer.entity === null) patch.entity = 'location'
  if (answer.hidden === undefined || answer.hidden === null) patch.hidden = false
  if (answer.createdAt === undefined || answer.createdAt === null) patch.createdAt = now
  return patch
}
