import { signInWithCustomToken } from 'firebase/auth'
import { ApiError, api } from '../../../lib/api-client.ts'
import { getFirebase } from '../../../lib/firebase.ts'
import { SessionExpiredError } from '../../../lib/session.ts'

/**
 * Makes Firebase Auth in this browser signed in as `id`, so Firestore and Storage requests carry
 * that user's ID token. A browser may hold a valid session (the cookies) without Auth's stored user
 * (another profile, cleared site data): REQ-SESSION-3 says a valid session loads the user, so the api
 * hands the session's holder a custom token to sign Auth in with (POST /api/auth/token).
 */
export async function ensureAuthUser(id: string): Promise<void> {
  const firebase = getFirebase()
  if (firebase === null) return
  await firebase.auth.authStateReady()
  if (firebase.auth.currentUser?.uid === id) return
  // A 401 says the session itself is gone (ended on this device, or "Log ud på alle enheder"
  // elsewhere): the stored user must go too (REQ-SESSION-1), not stay on screen until the next check.
  // The schema loads beside the request (this runs at the app's start; its first load stays small).
  const schema = import('@bosted/domain/api').then((module) => module.CustomTokenResponseSchema)
  const { customToken } = await api('/auth/token', schema, { method: 'POST' }).catch((error: unknown) => {
    throw error instanceof ApiError && error.status === 401 ? new SessionExpiredError() : error
  })
  const { user } = await signInWithCustomToken(firebase.auth, customToken)
  if (user.uid !== id) throw new Error('the session belongs to another user')
}
