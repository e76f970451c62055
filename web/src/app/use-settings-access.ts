import { roleRank } from '@bosted/domain/user'
import { useSnapshot } from 'valtio'
import { type LocationSummary, locations } from '../features/locations/locations-store.ts'
import { type SessionUser, session } from '../features/session/session-store.ts'

export type SettingsAccess = {
  user: SessionUser | null
  /** The active location, or null (none chosen or not loaded yet). */
  location: LocationSummary | null
  loaded: boolean
  /** Superusers and admins manage persons, staff and answer options; employees only read. */
  isManager: boolean
  isAdmin: boolean
}

/** Who is looking at a settings or creation page, and for which location. */
export function useSettingsAccess(): SettingsAccess {
  const { user } = useSnapshot(session)
  const { list, activeId, loaded } = useSnapshot(locations)
  const location = (list.find((candidate) => candidate.id === activeId) ?? null) as LocationSummary | null
  const rank = user === null ? 0 : roleRank(user.customClaims.userRole ?? 'user', user.customClaims)
  return {
    user: user as SessionUser | null,
    location,
    loaded,
    isManager: rank >= 2,
    isAdmin: rank >= 3,
  }
}
