import { api } from '../../../lib/api-client.ts'

/** POST /api/auth/validate: the browser sends the HttpOnly `session` cookie, the api checks it. */
export async function validateSession(): Promise<boolean> {
  const answer = await api<{ isValid?: unknown }>('/auth/validate', { method: 'POST', body: {} })
  return answer.isValid === true
}
