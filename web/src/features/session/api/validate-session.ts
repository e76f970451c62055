import { ValidateResponseSchema } from '@bosted/domain/api'
import { api } from '../../../lib/api-client.ts'

/** POST /api/auth/validate: the browser sends the HttpOnly `session` cookie, the api checks it. */
export async function validateSession(): Promise<boolean> {
  // An answer that does not say `isValid: true` is no valid session.
  const answer = await api('/auth/validate', ValidateResponseSchema.catch({ isValid: false }), {
    method: 'POST',
    body: {},
  })
  return answer.isValid
}
