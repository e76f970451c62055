import type { PasswordPolicy } from '@bosted/domain'
import type { DecodedIdToken } from 'firebase-admin/auth'
import type { RateLimiter } from '../middleware/rate-limit.ts'
import type { ServiceAccount } from './custom-token.ts'
import type { Firebase } from './firebase.ts'
import type { SessionVerifier } from './sessions.ts'
import type { TokenVerifier } from './token-verifier.ts'
import type { WriteGate } from './write-gate.ts'

/** What the app needs besides Firebase; index.ts fills it from env.ts, tests pass their own. */
export type AppConfig = {
  /** `auto`: Secure unless the request's host is localhost, 127.0.0.1 or [::1]. */
  cookieSecure: boolean | 'auto'
  /** Origins allowed to send cookie-authenticated writes besides the request's own host. */
  appOrigins: string[]
  trustProxy: 'loopback' | 'all' | 'none'
  sessionMaxAgeMs: number
  sessionCheckCacheMs: number
  loginRateLimit: { max: number; windowMs: number }
  accountRateLimit: { max: number; windowMs: number }
  bodyLimitBytes: number
  /** Where refresh exchanges a custom token for an ID token: the Auth emulator, or Google with an API key. */
  identityToolkit: { emulatorHost: string | undefined; apiKey: string }
  /** Emulator mode only: unsigned tokens are believed too (the official Auth emulator's). */
  acceptUnsignedTokens: boolean
  /** The rules new passwords must pass (PASSWORD_POLICY). */
  passwordPolicy: PasswordPolicy
  /** Whether a forgotten password can be reset by a link sent by mail (an SMTP relay is configured). */
  resetByMail: boolean
  /**
   * Emulator mode only: the key refresh signs its custom tokens with (emulator-lite trusts no
   * unsigned ones). Without it refresh falls back to firebase-admin's unsigned emulator tokens,
   * which only an emulator started with --accept-unsigned-tokens takes.
   */
  emulatorServiceAccount?: ServiceAccount | undefined
  /** Where the token keys are fetched from outside emulator mode (Google's; tests point it elsewhere). */
  googleKeysBaseUrl?: string | undefined
}

export type Services = {
  firebase: Firebase
  /** Verifies ID tokens and session cookies (signature, claims, revocation) against published keys. */
  tokens: TokenVerifier
  sessions: SessionVerifier
  /** A custom token for uid, for refresh to exchange for a fresh ID token. */
  createCustomToken: (uid: string) => Promise<string>
  /** Sign-in tokens that do not verify, per client address. */
  loginLimiter: RateLimiter
  /** Sign-in tokens that verify but are refused, per account. */
  accountLimiter: RateLimiter
  /** Whether the backend stores writes (a probe write every few seconds at most). */
  writeGate: WriteGate
  config: AppConfig
}

export type AppEnv = {
  Variables: {
    services: Services
    requestId: string
    clientAddress: string
    /** Set by requireSession. */
    session: DecodedIdToken
    sessionCookie: string
  }
}
