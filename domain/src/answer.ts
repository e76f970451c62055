import { z } from 'zod'

export const ANSWER_ENTITIES = ['person', 'location'] as const
export type AnswerEntity = (typeof ANSWER_ENTITIES)[number]

/** An answer option (persons/{id}/answers, locations/{id}/answers). */
export const AnswerSchema = z.object({
  id: z.string(),
  text: z.string(),
  value: z.number(),
  hidden: z.boolean().default(false),
  entity: z.enum(ANSWER_ENTITIES),
  createdAt: z.string(),
})
export type Answer = z.infer<typeof AnswerSchema>

export const PersonAnswerSchema = AnswerSchema.extend({ entity: z.enum(ANSWER_ENTITIES).default('person') })
export const LocationAnswerSchema = AnswerSchema.extend({ entity: z.enum(ANSWER_ENTITIES).default('location') })

/** A registration: an answer given on a day (persons/{id}/registrations/{rid}). */
export const RegistrationSchema = z.object({
  answerId: z.string(),
  text: z.string(),
  value: z.number(),
  entity: z.enum(ANSWER_ENTITIES),
  comment: z.string().optional(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  createdAt: z.string(),
  createdBy: z.string(),
})
export type Registration = z.infer<typeof RegistrationSchema>

/** A diary entry (persons/{id}/notes/{nid}). */
export const NoteSchema = z.object({
  text: z.string().min(1),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  source: z.enum(['keyboard', 'speech']),
  createdAt: z.string(),
  createdBy: z.string(),
  authorName: z.string(),
})
export type Note = z.infer<typeof NoteSchema>

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
