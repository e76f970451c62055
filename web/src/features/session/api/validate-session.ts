import * as z from 'zod/mini'
import { api } from '../../../lib/api-client.ts'

/** POST /api/auth/validate: the browser sends the HttpOnly `session` cookie, the api checks it. */
export async function validateSession(): Promise<boolean> {
  // An answer that does not say `isValid: true` is no valid session. The schema (and zod's) loads
  // beside the request: the app's start asks this, and its first load stays small.
  const schema = import('@bosted/domain/api').then((module) =>
    z.catch(module.ValidateResponseSchema, { isValid: false }),
  )
  const answer = await api('/auth/validate', schema, { method: 'POST', body: {} })
  return answer.isValid
}
