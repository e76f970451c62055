import { type Answer, LocationAnswerSchema, PersonAnswerSchema } from '@bosted/domain/answer'
import { locationAnswersPath, personAnswersPath } from '@bosted/domain/paths'
import type { Person } from '@bosted/domain/person'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { parseRecords } from '../../../lib/parse-records.ts'
import { orderAnswerOptions } from '../answer-options.ts'
import { answerKeys } from './keys.ts'

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

/** Options change rarely; a dialog opened again within five minutes shows them at once. */
const ANSWER_OPTIONS_STALE_MS = 5 * 60_000

type OptionsLocation = { id: string; answerOptions: readonly string[] }

export function answerOptionsQueryOptions(person: Pick<Person, 'id' | 'settings'>, location: OptionsLocation) {
  return queryOptions({
    queryKey: answerKeys.options(person.id, location.id),
    queryFn: () => getAnswerOptions(person, location),
  })
}

/**
 * The options `person` can be registered with at `location`; none asked for while `person` is null
 * (a dialog that is closed). `isDialog`: kept five minutes, so a dialog opened again shows them at once.
 */
export function useAnswerOptions(
  person: Pick<Person, 'id' | 'settings'> | null,
  location: OptionsLocation,
  { isDialog = false }: { isDialog?: boolean } = {},
) {
  return useQuery({
    queryKey: answerKeys.options(person?.id ?? '', location.id),
    queryFn: person === null ? skipToken : () => getAnswerOptions(person, location),
    ...(isDialog ? { staleTime: ANSWER_OPTIONS_STALE_MS } : {}),
  })
}
