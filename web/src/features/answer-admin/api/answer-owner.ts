import type { AnswerEntity } from '@bosted/domain/answer'
import { locationAnswersPath, locationPath, personAnswersPath, personPath } from '@bosted/domain/paths'

/** Whose answer options: a location's (settings) or a person's own. */
export type AnswerOwner = { entity: AnswerEntity; id: string }

export const answersPathOf = (owner: AnswerOwner) =>
  owner.entity === 'person' ? personAnswersPath(owner.id) : locationAnswersPath(owner.id)

/** The document whose `settings.answerOptions` holds the display order (ADR 0003). */
export const ownerPathOf = (owner: AnswerOwner) =>
  owner.entity === 'person' ? personPath(owner.id) : locationPath(owner.id)
