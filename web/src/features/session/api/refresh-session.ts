import { api } from '../../../lib/api-client.ts'

/** POST /api/auth/refresh: the api re-issues the session cookie. */
export async function refreshSession(): Promise<void> {
  await api('/auth/refresh', { method: 'POST' })
}
