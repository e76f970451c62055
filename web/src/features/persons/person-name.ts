import { displayName } from '@bosted/domain/names'
import type { Person } from '@bosted/domain/person'

export { initials } from '@bosted/domain/names'

export const personName = (person: Pick<Person, 'firstName' | 'lastName'>): string => displayName(person)

const collator = new Intl.Collator('da-DK', { sensitivity: 'base', numeric: true })

/** Sorted by name with Danish collation: æ, ø and å after z. */
export function sortByName<T extends Pick<Person, 'firstName' | 'lastName'>>(persons: readonly T[]): T[] {
  return [...persons].sort(
    (a, b) => collator.compare(a.firstName, b.firstName) || collator.compare(a.lastName, b.lastName),
  )
}
