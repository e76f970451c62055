import type { IncomingMessage } from 'node:http'
import { ApiError } from '../http/errors.ts'
import type { RulesAuth } from '../rules/index.ts'

/** Who sent a request: a privileged server SDK (no rules), or a client with or without an ID token. */
export type Caller = { privileged: true } | { privileged: false; auth: RulesAuth }

const PRIVILEGED: Caller = { privileged: true }
const ANONYMOUS: Caller = { privileged: false, auth: null }

/**
 * Reads the Authorization header as the official emulators do (rules-language.md §7): `owner` and
 * Google OAuth access tokens are an administrator; any other token is an ID token whose payload is
 * decoded without verification (emulators accept the Auth emulator's unsigned tokens); no header is
 * an unauthenticated client. Firestore clients send `Bearer`, the Storage web SDK `Firebase`.
 */
export function callerOf(req: IncomingMessage): Caller {
  const header = req.headers.authorization
  if (header === undefined || header.trim() === '') return ANONYMOUS
  const match = /^(bearer|firebase)\s+(\S+)\s*$/i.exec(header)
  if (!match) throw new ApiError('UNAUTHENTICATED', 'Unsupported Authorization header')
  const token = match[2] as string
  if (token.toLowerCase() === 'owner' || token.startsWith('ya29.')) return PRIVILEGED
  return { privileged: false, auth: decodeIdToken(token) }
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
