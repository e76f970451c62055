import { signInWithEmailAndPassword } from 'firebase/auth'
import { apiSend } from '../../../lib/api-client.ts'
import { getFirebase } from '../../../lib/firebase.ts'
import { reportError } from '../../../lib/report-error.ts'

/**
 * POST /api/auth/change-password: the api checks the current password, sets the new one (every other
 * session ends) and renews this browser's session cookie; then Firebase Auth in this browser signs in
 * again with the new password (its own session was ended with the others).
 */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await apiSend('/auth/change-password', { method: 'POST', body: { currentPassword, newPassword } })
  const firebase = getFirebase()
  const email = firebase?.auth.currentUser?.email
  if (firebase && email) {
    await signInWithEmailAndPassword(firebase.auth, email, newPassword).catch(
      reportError('signing Firebase Auth in again failed'),
    )
  }
}
