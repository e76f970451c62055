import { signOut } from 'firebase/auth'
import { api } from '../../../lib/api-client.ts'
import { clearCookie, USER_ID_COOKIE } from '../../../lib/cookies.ts'
import { getFirebase } from '../../../lib/firebase.ts'

/** POST /api/auth/logout (revokes and clears the cookies), then signs Firebase Auth out too. */
export async function logout(): Promise<void> {
  await api('/auth/logout', { method: 'POST' })
  clearCookie(USER_ID_COOKIE)
  const firebase = getFirebase()
  if (firebase !== null) {
    await signOut(firebase.auth).catch((error: unknown) => console.warn('Firebase sign-out failed', error))
  }
}
