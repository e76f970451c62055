import { apiSend } from '../../../lib/api-client.ts'

/** PUT /api/user/{id}/temporary-password: the account must change it at its next sign-in. */
export async function setTemporaryPassword(userId: string, password: string): Promise<void> {
  await apiSend(`/user/${encodeURIComponent(userId)}/temporary-password`, { method: 'PUT', body: { password } })
}
