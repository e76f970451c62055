type Searchable = {
  firstName: string
  lastName: string
  contact: { email: string | null; phone: string | null } | null
}

const normalize = (text: string) => text.toLocaleLowerCase('da-DK').replace(/\s+/g, ' ').trim()

/** Whether every word of the search occurs in the name, email or phone (case-insensitive). */
export function matchesSearch(entry: Searchable, search: string): boolean {
  const words = normalize(search).split(' ').filter(Boolean)
  if (words.length === 0) return true
  const haystack = normalize(
    [entry.firstName, entry.lastName, entry.contact?.email ?? '', entry.contact?.phone ?? ''].join(' '),
  )
  return words.every((word) => haystack.includes(word))
}
