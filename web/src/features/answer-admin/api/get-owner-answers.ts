import { type Answer, LocationAnswerSchema, PersonAnswerSchema } from '@bosted/domain/answer'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { parseRecords } from '../../../lib/parse-records.ts'
import { type AnswerOwner, answersPathOf, ownerPathOf } from './answer-owner.ts'
import { answerAdminKeys } from './keys.ts'

export type OwnerAnswers = {
  options: Answer[]
  order: string[]
  /** Options that did not fit their schema: left out, counted for the staff notice. */
  skipped: number
}

/**
 * Every answer option of a location or person, hidden ones included, with the stored order
 * (`settings.answerOptions`). Each option is parsed on its own; one that does not fit is left out and counted.
 */
export async function getOwnerAnswers(owner: AnswerOwner): Promise<OwnerAnswers> {
  const [db, { collection, doc, getDoc, getDocs }] = await Promise.all([getDb(), firestoreLite()])
  const schema = owner.entity === 'person' ? PersonAnswerSchema : LocationAnswerSchema
  const [answers, ownerDoc] = await Promise.all([
    getDocs(collection(db, answersPathOf(owner))),
    getDoc(doc(db, ownerPathOf(owner))),
  ])
  const stored = (ownerDoc.data()?.settings as { answerOptions?: unknown } | undefined)?.answerOptions
  const { items, skipped } = parseRecords('answers', answers.docs, (document) =>
    schema.parse({ ...document.data(), id: document.id }),
  )
  return {
    options: items,
    skipped,
    order: Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [],
  }
}

export function ownerAnswersQueryOptions(owner: AnswerOwner) {
  return queryOptions({ queryKey: answerAdminKeys.owner(owner), queryFn: () => getOwnerAnswers(owner) })
}

/** A location's or person's answer options as the editor shows them. */
export function useOwnerAnswers(owner: AnswerOwner) {
  return useQuery(ownerAnswersQueryOptions(owner))
}
