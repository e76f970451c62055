import { canAdminister, canManage, roleOfClaims } from '@bosted/domain/user'
import { useSnapshot } from 'valtio'
import type { LocationSummary } from '../features/locations/locations-store.ts'
import { useActiveLocation } from '../features/locations/use-active-location.ts'
import { type SessionUser, session } from '../features/session/session-store.ts'

export type SettingsAccess = {
  user: SessionUser | null
  /** The active location, or null (none chosen or not loaded yet). */
  location: LocationSummary | null
  /** The user's locations (the query cache's; empty while they load). */
  list: readonly LocationSummary[]
  loaded: boolean
  /** Superusers and admins manage persons, staff and answer options; employees only read. */
  isManager: boolean
  isAdmin: boolean
}

/** Who is looking at a settings or creation page, and for which location. */
export function useSettingsAccess(): SettingsAccess {
  const { user } = useSnapshot(session)
  const { query, list, location } = useActiveLocation(user?.locations ?? [])
  return {
    user: user as SessionUser | null,
    location,
    list,
    loaded: !query.isPending,
    isManager: user !== null && canManage(roleOfClaims(user.customClaims), user.customClaims),
    isAdmin: user !== null && canAdminister(roleOfClaims(user.customClaims), user.customClaims),
  }
}
