import { da } from '@bosted/domain/messages/da'
import { signInWithEmailAndPassword, signOut } from 'firebase/auth'
import { ApiError, apiSend } from '../../../lib/api-client.ts'
import { getFirebase } from '../../../lib/firebase.ts'

/** A sign-in failure with the Danish message to show. */
export class SignInError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SignInError'
  }
}

const AUTH_MESSAGES: Record<string, string> = {
  'auth/invalid-credential': da.login.wrongCredentials,
  'auth/invalid-login-credentials': da.login.wrongCredentials,
  'auth/wrong-password': da.login.wrongCredentials,
  'auth/invalid-password': da.login.wrongCredentials,
  'auth/user-not-found': da.login.unknownUser,
  'auth/user-disabled': da.login.userDisabled,
  'auth/too-many-requests': da.login.tooManyAttempts,
  'auth/network-request-failed': da.login.network,
  'auth/invalid-email': da.validation.emailInvalid,
  'auth/missing-password': da.validation.passwordRequired,
  'auth/missing-email': da.validation.emailRequired,
}

const API_MESSAGES: Record<string, string> = {
  unauthenticated: da.login.wrongCredentials,
  forbidden: da.login.userDisabled,
  too_many_requests: da.login.tooManyAttempts,
  unavailable: da.api.unavailable,
}

/** Maps a Firebase Auth error, an api error or a network failure to the Danish message shown. */
export function signInErrorMessage(error: unknown): string {
  if (error instanceof SignInError) return error.message
  if (error instanceof ApiError) return (error.code !== null && API_MESSAGES[error.code]) || da.login.failed
  if (error instanceof TypeError) return da.login.network
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : ''
  return AUTH_MESSAGES[code] ?? da.login.failed
}

/**
 * Signs in with Firebase Auth (email + password), then hands the ID token to the api, which sets
 * the `session` and `userId` cookies. Returns the user's id.
 */
export async function signIn(email: string, password: string): Promise<string> {
  const firebase = getFirebase()
  if (firebase === null) throw new SignInError(da.login.configMissing)
  const credential = await signInWithEmailAndPassword(firebase.auth, email.trim(), password)
  try {
    const idToken = await credential.user.getIdToken()
    await apiSend('/auth/login', { method: 'POST', body: { idToken } })
  } catch (error) {
    await signOut(firebase.auth).catch(() => {})
    throw error
  }
  return credential.user.uid
}
