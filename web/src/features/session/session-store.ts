import { displayName } from '@bosted/domain/names'
import type { ActiveUser } from '@bosted/domain/user'
import { proxy, subscribe } from 'valtio'

/**
 * The active user (REQ-MODEL-2) plus the ids of the locations the user may see, and whether the account
 * is staff or a person (a borger, who has only "Min dag"). Missing `kind` (stored before it existed): staff.
 */
export type SessionUser = ActiveUser & { locations: string[]; kind?: 'staff' | 'person'; avatarUrl?: string | null }

export const isPersonAccount = (user: Pick<SessionUser, 'kind'> | null): boolean => user?.kind === 'person'

const STORAGE_KEY = 'bosted.session'

type Persisted = { user: SessionUser | null; lastCheck: number }

function restore(): Persisted {
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Persisted> | null
    const user = raw?.user
    const isUser =
      typeof user === 'object' && user !== null && typeof user.id === 'string' && Array.isArray(user.locations)
    return { user: isUser ? user : null, lastCheck: typeof raw?.lastCheck === 'number' ? raw.lastCheck : 0 }
  } catch {
    return { user: null, lastCheck: 0 }
  }
}

/**
 * The signed-in user, kept in local storage so a reload starts "with an active user" (REQ-SESSION-2).
 * `lastCheck` is when the session cookie was last confirmed fresh (sign-in, validation, refresh).
 */
export const session = proxy<Persisted>(restore())

subscribe(session, () => {
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ user: session.user, lastCheck: session.lastCheck }))
})

export function setSessionUser(user: SessionUser | null): void {
  session.user = user
}

export function markSessionFresh(now: number = Date.now()): void {
  session.lastCheck = now
}

export const isAdmin = (user: Pick<ActiveUser, 'customClaims'> | null): boolean => user?.customClaims.admin === true
export const fullName = (user: Pick<ActiveUser, 'firstName' | 'lastName'>): string => displayName(user)
