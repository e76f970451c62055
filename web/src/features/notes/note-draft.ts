/** An unsaved diary entry: kept per user and person in sessionStorage (this tab only), so a reload loses nothing. */
export type NoteDraft = { text: string; day: string; dictated: boolean }

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

const draftKey = (userId: string, personId: string) => `bosted.noteDraft.${userId}.${personId}`
const lastPersonKey = (userId: string) => `bosted.noteDraft.${userId}`

export function loadNoteDraft(
  userId: string,
  personId: string,
  storage: StorageLike = sessionStorage,
): NoteDraft | null {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(draftKey(userId, personId)) ?? 'null')
    if (typeof parsed !== 'object' || parsed === null) return null
    const { text, day, dictated } = parsed as Record<string, unknown>
    if (typeof text !== 'string' || typeof day !== 'string') return null
    return { text, day, dictated: dictated === true }
  } catch {
    return null
  }
}

/** Saves the draft (an empty text removes it) and remembers whose it is, for the diary page's person field. */
export function saveNoteDraft(
  userId: string,
  personId: string,
  draft: NoteDraft,
  storage: StorageLike = sessionStorage,
): void {
  if (draft.text.trim() === '') storage.removeItem(draftKey(userId, personId))
  else storage.setItem(draftKey(userId, personId), JSON.stringify(draft))
  storage.setItem(lastPersonKey(userId), personId)
}

export function clearNoteDraft(userId: string, personId: string, storage: StorageLike = sessionStorage): void {
  storage.removeItem(draftKey(userId, personId))
}

/** The person whose draft was last touched in this tab, if any. */
export const lastDraftPerson = (userId: string, storage: StorageLike = sessionStorage): string | null =>
  storage.getItem(lastPersonKey(userId))
