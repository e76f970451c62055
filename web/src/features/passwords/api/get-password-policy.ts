import type { PasswordPolicyResponse } from '@bosted/domain/api'
import { api } from '../../../lib/api-client.ts'

/** GET /api/auth/password-policy: the rules new passwords must pass here, and whether reset by mail exists. */
export function getPasswordPolicy(): Promise<PasswordPolicyResponse> {
  // The schema loads beside the request: the sign-in page asks this, and its first load stays small.
  return api(
    '/auth/password-policy',
    import('@bosted/domain/api').then((module) => module.PasswordPolicyResponseSchema),
  )
}
