import type { CustomClaims } from '@bosted/domain/user'
import { ApiError, api } from '../../../lib/api-client.ts'
import { reportError } from '../../../lib/report-error.ts'
import { SessionExpiredError } from '../../../lib/session.ts'

/**
 * GET /api/user/getUserById: only `data.customClaims` is read, parsed with the domain schema. It
 * answers only for a session that holds: any failure rejects (the api's status in an ApiError).
 */
export async function readUserClaims(id: string): Promise<CustomClaims> {
  // The app's start asks this: the schema (and zod's) loads beside the request, not in the first load.
  const schema = import('@bosted/domain/api').then((module) => module.UserClaimsResponseSchema)
  const answer = await api(`/user/getUserById?id=${encodeURIComponent(id)}`, schema)
  return answer.data.customClaims ?? {}
}

/**
 * The claims of `readUserClaims` (its `answer`, when the caller has asked already). A 401 means the
 * session is gone; any other failure only warns (REQ-CALL-4) and yields the claims last known for
 * this user (`known`; none for a user not read before): a read cut off by leaving the page, or a
 * moment's 503, does not take an administrator's menu away. The api and the rules decide access
 * whatever the claims here say; these only choose what the screens offer.
 */
export async function getUserClaims(
  id: string,
  known: CustomClaims = {},
  answer: Promise<CustomClaims> = readUserClaims(id),
): Promise<CustomClaims> {
  try {
    return await answer
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw new SessionExpiredError()
    reportError('getUserById failed')(error)
    return known
  }
}
