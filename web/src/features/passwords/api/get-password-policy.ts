import { type PasswordPolicyResponse, PasswordPolicyResponseSchema } from '@bosted/domain/api'
import { api } from '../../../lib/api-client.ts'

/** GET /api/auth/password-policy: the rules new passwords must pass here, and whether reset by mail exists. */
export function getPasswordPolicy(): Promise<PasswordPolicyResponse> {
  return api('/auth/password-policy', PasswordPolicyResponseSchema)
}
