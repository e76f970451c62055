import { CreateUserResponseSchema } from '@bosted/domain/api'
import { ApiError, api, apiSend } from '../../../lib/api-client.ts'

/** The create call did not answer 200 with a userId (REQ-MSG-3 'Auth-oprettelse … fejlede'). */
export class AuthCreateError extends Error {
  constructor(readonly reason: unknown) {
    super('the auth account could not be created')
    this.name = 'AuthCreateError'
  }
}

/** The api's 409: the e-mail is already an account's. Said at the e-mail field, not only in a toast. */
export function isEmailInUse(error: unknown): boolean {
  return error instanceof AuthCreateError && error.reason instanceof ApiError && error.reason.status === 409
}

export type AuthAccountRequest = { email: string; password: string; displayName: string; avatarUrl?: string }

/** POST /api/user/create (REQ-CALL-5): the new account's uid, or AuthCreateError. */
export async function createAuthAccount(request: AuthAccountRequest): Promise<string> {
  let userId: string
  try {
    // A refusal (ApiError) or an answer that does not fit the schema (its schema error) is the reason.
    userId = (await api('/user/create', CreateUserResponseSchema, { method: 'POST', body: request })).body.userId
  } catch (error) {
    throw new AuthCreateError(error)
  }
  if (userId === '') throw new AuthCreateError(undefined)
  return userId
}

/** POST /api/user/remove: removes an account that no document uses yet (a failed creation's). */
export async function removeAuthAccount(userId: string): Promise<void> {
  await apiSend('/user/remove', { method: 'POST', body: { userId } })
}
