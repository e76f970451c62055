import { UserRecordResponseSchema } from '@bosted/domain/api'
import { type CustomClaims, CustomClaimsSchema } from '@bosted/domain/user'
import { ApiError, api } from '../../../lib/api-client.ts'
import { SessionExpiredError } from '../../../lib/session.ts'

/**
 * GET /api/user/getUserById: only `data.customClaims` is read (both parsed with the domain schemas). A 401 means the session is gone;
 * any other failure only warns (SPEC §7) and yields no claims.
 */
export async function getUserClaims(id: string): Promise<CustomClaims> {
  try {
    const answer = await api(`/user/getUserById?id=${encodeURIComponent(id)}`, UserRecordResponseSchema)
    return CustomClaimsSchema.parse(answer.data.customClaims)
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw new SessionExpiredError()
    console.warn('getUserById failed', error)
    return {}
  }
}
