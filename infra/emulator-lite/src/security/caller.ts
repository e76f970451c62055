import { ApiError } from '../http/errors.ts'
import type { RulesAuth } from '../rules/index.ts'

/**
 * Who sent a request (decided once, by the identity middleware of http/core.ts): a privileged server
 * SDK or tool (no rules), or a client with or without a believed ID token.
 */
export type Caller = { privileged: true } | { privileged: false; auth: RulesAuth }

/**
 * The default ID-token check (the official emulators'): the payload decoded without verification;
 * a token that is not a JWT with a subject is no token. Replaced by a verifier through
 * `startEmulatorLite({ verifyIdToken })`.
 */
export function decodeIdTokenOrNull(token: string): RulesAuth | null {
  try {
    return decodeIdToken(token)
  } catch {
    return null
  }
}

/** The claims of an ID token as `request.auth`: uid from `sub` (or `user_id`), every claim in `token`. */
export function decodeIdToken(token: string): NonNullable<RulesAuth> {
  const parts = token.split('.')
  if (parts.length !== 3) throw new ApiError('INVALID_ARGUMENT', 'invalid jwt')
  let claims: unknown
  try {
    claims = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8'))
  } catch {
    throw new ApiError('INVALID_ARGUMENT', 'invalid jwt')
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims))
    throw new ApiError('INVALID_ARGUMENT', 'invalid jwt')
  const record = claims as Record<string, unknown>
  const uid = typeof record.sub === 'string' ? record.sub : record.user_id
  if (typeof uid !== 'string' || uid === '') throw new ApiError('INVALID_ARGUMENT', 'invalid jwt: no subject')
  return { uid, token: record }
}
