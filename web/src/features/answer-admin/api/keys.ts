import type { QueryRoot } from '../../../lib/query-roots.ts'
import type { AnswerOwner } from './answer-owner.ts'

/**
 * The answer-admin feature's query keys, under the `answers` root it shares with the options the
 * register dialog reads: a change to an option invalidates `answerAdminKeys.all`, and both follow.
 */
export const answerAdminKeys = {
  all: ['answers'] as const satisfies readonly [QueryRoot],
  owner: (owner: AnswerOwner) => ['answers', 'admin', owner.entity, owner.id] as const,
}
