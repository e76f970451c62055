import type { CustomClaims } from '@bosted/domain/user'
import type { SessionUser } from '../session-store.ts'
import { ensureAuthUser } from './ensure-auth-user.ts'
import { getUserClaims } from './get-user-claims.ts'
import { getUserProfile } from './get-user-profile.ts'

/**
 * Loads the active user by id: claims from the api, name and locations from users/{id}. `knownClaims`:
 * what this browser last read for the same user, kept when the api cannot be asked now.
 */
export async function loadSessionUser(id: string, knownClaims?: CustomClaims): Promise<SessionUser> {
  // The claims come from the api on the session cookie alone: asked at once, beside Auth's restore.
  const claims = getUserClaims(id, knownClaims)
  claims.catch(() => {})
  // Firestore's rules need Auth signed in as this user, which a valid session alone does not make.
  await ensureAuthUser(id)
  const [customClaims, profile] = await Promise.all([claims, getUserProfile(id)])
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
