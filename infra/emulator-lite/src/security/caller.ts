import type { IncomingMessage } from 'node:http'
import { ApiError } from '../http/errors.ts'
import type { RulesAuth } from '../rules/index.ts'

/** Who sent a request: a privileged server SDK (no rules), or a client with or without an ID token. */
export type Caller = { privileged: true } | { privileged: false; auth: RulesAuth }

/** The identity an ID token proves (`request.auth`), or null when it proves none (see auth/identity.ts). */
export type Identify = (token: string) => RulesAuth

const PRIVILEGED: Caller = { privileged: true }
const ANONYMOUS: Caller = { privileged: false, auth: null }

/**
 * Reads the Authorization header as the official emulators do (rules-language.md §7): `owner` and
 * Google OAuth access tokens are an administrator; any other token is an ID token that `identify`
 * verifies (a token it refuses counts as no token, as production treats a caller whose token fails);
 * no header is an unauthenticated client. Firestore clients send `Bearer`, the Storage web SDK `Firebase`.
 */
export function callerOf(req: IncomingMessage, identify: Identify): Caller {
  const header = req.headers.authorization
  if (header === undefined || header.trim() === '') return ANONYMOUS
  const match = /^(bearer|firebase)\s+(\S+)\s*$/i.exec(header)
  if (!match) throw new ApiError('UNAUTHENTICATED', 'Unsupported Authorization header')
  const token = match[2] as string
  if (token.toLowerCase() === 'owner' || token.startsWith('ya29.')) return PRIVILEGED
  return { privileged: false, auth: identify(token) }
}

/** For routes that only ask whether the caller is privileged. */
export const identifyNobody: Identify = () => null
