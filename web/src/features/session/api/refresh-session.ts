import { apiSend } from '../../../lib/api-client.ts'

/** POST /api/auth/refresh: the api re-issues the session cookie. */
export async function refreshSession(): Promise<void> {
  await apiSend('/auth/refresh', { method: 'POST' })
}
