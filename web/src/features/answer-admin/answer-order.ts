import type { Answer } from '@bosted/domain/answer'

/** Options in the stored order; ones the order does not list follow, highest value first. */
export function sortByOrder(options: readonly Answer[], order: readonly string[]): Answer[] {
  const rank = (option: Answer) => {
    const index = order.indexOf(option.id)
    return index === -1 ? Number.POSITIVE_INFINITY : index
  }
  return [...options].sort((a, b) => rank(a) - rank(b) || b.value - a.value || a.text.localeCompare(b.text, 'da'))
}

/** The ids with the one at `from` moved to `to` (both clamped to the list). */
export function move(ids: readonly string[], from: number, to: number): string[] {
  const next = [...ids]
  if (from < 0 || from >= next.length) return next
  const target = Math.max(0, Math.min(next.length - 1, to))
  const [moved] = next.splice(from, 1)
  if (moved !== undefined) next.splice(target, 0, moved)
  return next
}
