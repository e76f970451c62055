import type { CustomClaims } from '@bosted/domain/user'
import { reportError } from '../../../lib/report-error.ts'
import type { SessionUser } from '../session-store.ts'
import { ensureAuthUser } from './ensure-auth-user.ts'
import { getUserClaims, readUserClaims } from './get-user-claims.ts'
import { getUserProfile } from './get-user-profile.ts'

/**
 * Loads the active user by id: claims from the api, name and locations from users/{id}. `knownClaims`:
 * what this browser last read for the same user, kept when the api cannot be asked now. `readAhead`
 * gets the claims once the api has answered for this session and Auth is signed in as the user:
 * beside the profile's read, not after it, and never when the api could not confirm the session.
 */
export async function loadSessionUser(
  id: string,
  knownClaims?: CustomClaims,
  readAhead?: (claims: CustomClaims) => void,
): Promise<SessionUser> {
  // The claims come from the api on the session cookie alone: asked at once, beside Auth's restore.
  const answer = readUserClaims(id)
  const claims = getUserClaims(id, knownClaims, answer)
  claims.catch(() => {})
  // Firestore's rules need Auth signed in as this user, which a valid session alone does not make.
  await ensureAuthUser(id)
  const profileRead = getUserProfile(id)
  if (readAhead !== undefined) answer.then(readAhead, () => {}).catch(reportError('the read-ahead failed'))
  const [customClaims, profile] = await Promise.all([claims, profileRead])
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
