import { type Answer, LocationAnswerSchema, PersonAnswerSchema } from '@bosted/domain/answer'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type AnswerOwner, answersPathOf, ownerPathOf } from './answer-owner.ts'

export type OwnerAnswers = { options: Answer[]; order: string[] }

/**
 * Every answer option of a location or person, hidden ones included, with the stored order
 * (`settings.answerOptions`). Parsed with the domain schemas; a failure throws.
 */
export async function getOwnerAnswers(owner: AnswerOwner): Promise<OwnerAnswers> {
  const [db, { collection, doc, getDoc, getDocs }] = await Promise.all([getDb(), firestoreLite()])
  const schema = owner.entity === 'person' ? PersonAnswerSchema : LocationAnswerSchema
  const [answers, ownerDoc] = await Promise.all([
    getDocs(collection(db, answersPathOf(owner))),
    getDoc(doc(db, ownerPathOf(owner))),
  ])
  const stored = (ownerDoc.data()?.settings as { answerOptions?: unknown } | undefined)?.answerOptions
  return {
    options: answers.docs.map((document) => schema.parse({ ...document.data(), id: document.id })),
    order: Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [],
  }
}
