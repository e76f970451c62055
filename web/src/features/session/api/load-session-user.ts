import type { SessionUser } from '../session-store.ts'
import { getUserClaims } from './get-user-claims.ts'
import { getUserProfile } from './get-user-profile.ts'

/** Loads the active user by id: claims from the api, name and locations from users/{id}. */
export async function loadSessionUser(id: string): Promise<SessionUser> {
  const [customClaims, profile] = await Promise.all([getUserClaims(id), getUserProfile(id)])
  return {
    id,
    kind: profile.kind,
    firstName: profile.firstName,
    lastName: profile.lastName,
    customClaims,
    locations: profile.locations,
    avatarUrl: profile.avatarUrl,
  }
}
