import type { Answer } from '@bosted/domain/answer'

type Input = {
  own: readonly Answer[]
  ownOrder: readonly string[]
  place: readonly Answer[]
  placeOrder: readonly string[]
  includePlaceAnswers: boolean
}

/** Options in the order of their ids in `order`; ones not listed follow, highest value first. */
function ordered(options: readonly Answer[], order: readonly string[]): Answer[] {
  const rank = (option: Answer) => {
    const index = order.indexOf(option.id)
    return index === -1 ? Number.POSITIVE_INFINITY : index
  }
  return [...options].sort((a, b) => rank(a) - rank(b) || b.value - a.value || a.text.localeCompare(b.text, 'da'))
}

/**
 * The person's own options, then the location's when `includePlaceAnswers`, each in its
 * `settings.answerOptions` order, without hidden ones.
 */
export function orderAnswerOptions({ own, ownOrder, place, placeOrder, includePlaceAnswers }: Input): Answer[] {
  const visible = (option: Answer) => !option.hidden
  return [
    ...ordered(own.filter(visible), ownOrder),
    ...(includePlaceAnswers ? ordered(place.filter(visible), placeOrder) : []),
  ]
}
