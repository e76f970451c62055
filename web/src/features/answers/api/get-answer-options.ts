import { type Answer, LocationAnswerSchema, PersonAnswerSchema } from '@bosted/domain/answer'
import { locationAnswersPath, personAnswersPath } from '@bosted/domain/paths'
import type { Person } from '@bosted/domain/person'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { parseRecords } from '../../../lib/parse-records.ts'
import { orderAnswerOptions } from '../answer-options.ts'

/**
 * The options a person can be registered with: their own, plus the location's when
 * `includePlaceAnswers`, without hidden ones, in `settings.answerOptions` order (ADR 0003).
 */
export async function getAnswerOptions(
  person: Pick<Person, 'id' | 'settings'>,
  location: { id: string; answerOptions: readonly string[] },
): Promise<Answer[]> {
  const [db, { collection, getDocs }] = await Promise.all([getDb(), firestoreLite()])
  const includePlace = person.settings.includePlaceAnswers
  const [own, place] = await Promise.all([
    getDocs(collection(db, personAnswersPath(person.id))),
    includePlace ? getDocs(collection(db, locationAnswersPath(location.id))) : null,
  ])
  return orderAnswerOptions({
    // An option that does not fit its schema is left out (and warned about), never the whole dialog.
    own: parseRecords('answers', own.docs, (document) =>
      PersonAnswerSchema.parse({ ...document.data(), id: document.id }),
    ).items,
    ownOrder: person.settings.answerOptions,
    place:
      place === null
        ? []
        : parseRecords('answers', place.docs, (document) =>
            LocationAnswerSchema.parse({ ...document.data(), id: document.id }),
          ).items,
    placeOrder: location.answerOptions,
    includePlaceAnswers: includePlace,
  })
}
