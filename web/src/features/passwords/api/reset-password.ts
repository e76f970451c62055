import { apiSend } from '../../../lib/api-client.ts'

/** POST /api/auth/forgot-password: a reset link by mail (the same answer whether the email has an account). */
export async function requestPasswordReset(email: string): Promise<void> {
  await apiSend('/auth/forgot-password', { method: 'POST', body: { email } })
}

/** POST /api/auth/reset-password: the link's code and the new password. */
export async function resetPassword(oobCode: string, newPassword: string): Promise<void> {
  await apiSend('/auth/reset-password', { method: 'POST', body: { oobCode, newPassword } })
}
