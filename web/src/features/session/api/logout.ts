import { signOut } from 'firebase/auth'
import { apiSend } from '../../../lib/api-client.ts'
import { clearCookie, USER_ID_COOKIE } from '../../../lib/cookies.ts'
import { getFirebase } from '../../../lib/firebase.ts'
import { reportError } from '../../../lib/report-error.ts'

/**
 * "Log ud": POST /api/auth/logout ends this device's session cookie and, where the backend can end
 * one refresh token (emulator-lite), this device's Firebase refresh token, sent along; other devices
 * of the account carry on (docs/decisions/0025-words.md). Then Firebase Auth is signed out here too.
 */
export async function logout(): Promise<void> {
  const refreshToken = getFirebase()?.auth.currentUser?.refreshToken
  await apiSend('/auth/logout', { method: 'POST', ...(refreshToken ? { body: { refreshToken } } : {}) })
  await signOutHere()
}

/** "Log ud på alle enheder": every session and refresh token of the account ends, this device's too. */
export async function logoutEverywhere(): Promise<void> {
  await apiSend('/auth/logout-everywhere', { method: 'POST' })
  await signOutHere()
}

async function signOutHere(): Promise<void> {
  clearCookie(USER_ID_COOKIE)
  const firebase = getFirebase()
  if (firebase !== null) {
    await signOut(firebase.auth).catch(reportError('Firebase sign-out failed'))
  }
}
