import {
  ChangePasswordRequestSchema,
  da,
  ForgotPasswordRequestSchema,
  LoginRequestSchema,
  LogoutRequestSchema,
  passwordMinLength,
  ResetPasswordRequestSchema,
  SESSION_COOKIE,
  ValidateRequestSchema,
} from '@bosted/domain'
import { type Context, Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { isAccountDisabled } from '../../lib/account.ts'
import { clearSessionCookies, setSessionCookies } from '../../lib/cookies.ts'
import { HttpError, httpError, isUnavailable } from '../../lib/http-error.ts'
import {
  IdentityToolkitError,
  identityToolkit,
  idTokenForCustomToken,
  idTokenForPassword,
} from '../../lib/identity-toolkit.ts'
import { assertPasswordAllowed, mustChangePassword, setAccountPassword } from '../../lib/passwords.ts'
import { revokeDeviceRefreshToken } from '../../lib/refresh-tokens.ts'
import { isInvalidSessionError } from '../../lib/sessions.ts'
import type { AppEnv } from '../../lib/types.ts'
import { countRefusal } from '../../middleware/rate-limit.ts'
import { requireSession } from '../../middleware/require-session.ts'
import { validateJson } from '../../middleware/validate.ts'

const WRONG_PASSWORD = new Set(['INVALID_PASSWORD', 'INVALID_LOGIN_CREDENTIALS', 'EMAIL_NOT_FOUND'])
const BAD_OOB_CODE = new Set(['INVALID_OOB_CODE', 'EXPIRED_OOB_CODE'])

/** An Auth REST refusal of a password check, as the api's error (`field` names the password typed). */
function passwordCheckError(error: unknown, field: string): never {
  if (!(error instanceof IdentityToolkitError)) throw error
  if (WRONG_PASSWORD.has(error.reason)) {
    throw httpError('invalid_request', {
      message: da.passwords.wrongCurrent,
      fields: { [field]: [da.passwords.wrongCurrent] },
    })
  }
  if (error.reason === 'TOO_MANY_ATTEMPTS_TRY_LATER') throw httpError('too_many_requests')
  if (error.reason === 'USER_DISABLED') throw httpError('forbidden', { message: da.login.userDisabled })
  throw error
}

/** The optional `{ refreshToken }` of a logout; anything else in the body is ignored, never refused. */
async function deviceRefreshToken(c: Context<AppEnv>): Promise<string | undefined> {
  const text = await c.req.text().catch(() => '')
  if (text.trim() === '') return undefined
  try {
    const parsed = LogoutRequestSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data.refreshToken : undefined
  } catch {
    return undefined
  }
}

/** Firebase's advice: only mint a session from a sign-in made in the last few minutes. */
const RECENT_SIGN_IN_S = 5 * 60

/**
 * Sign-in limits like Firebase's (docs/decisions/0013-sign-in-limits.md). A care home's whole shift
 * signs in from one office address, so nothing here ever refuses a token that verifies and is
 * accepted:
 * - a token that does not verify (garbage, forged, expired, revoked) counts against its client
 *   address, with a budget no shift reaches (`loginRateLimit`, 300 a minute by default); past it,
 *   such tokens get 429 while colleagues' valid sign-ins from the same address still get in;
 * - a token that verifies but is refused (sign-in too old, account turned off) counts against that
 *   account (`accountRateLimit`), wherever it comes from.
 * Password guessing itself is throttled per account where passwords are checked (Auth).
 */
export const authRoutes = new Hono<AppEnv>()
  .post('/login', validateJson(LoginRequestSchema), async (c) => {
    const { firebase, config, tokens, loginLimiter, accountLimiter } = c.var.services
    const { idToken } = c.req.valid('json')
    let decoded: Awaited<ReturnType<typeof tokens.verifyIdToken>>
    try {
      decoded = await tokens.verifyIdToken(idToken)
    } catch (error) {
      if (!isInvalidSessionError(error)) throw error
      countRefusal(loginLimiter, `address:${c.var.clientAddress}`)
      throw httpError('unauthenticated')
    }
    const uid = decoded.uid
    const refuse = (error: HttpError): never => {
      countRefusal(accountLimiter, `account:${uid}`)
      throw error
    }
    if (Date.now() / 1000 - decoded.auth_time > RECENT_SIGN_IN_S) refuse(httpError('unauthenticated'))
    // A disabled person or staff member (settings.disabled) is refused, with the Danish message.
    if (await isAccountDisabled(firebase.db, uid)) refuse(httpError('forbidden', { message: da.login.userDisabled }))
    const sessionCookie = await firebase.auth.createSessionCookie(idToken, { expiresIn: config.sessionMaxAgeMs })
    await c.var.services.sessions.admit(sessionCookie)
    setSessionCookies(c, sessionCookie, uid)
    return c.json({ userId: uid })
  })
  .post('/validate', validateJson(ValidateRequestSchema), async (c) => {
    const { token } = c.req.valid('json')
    const session = await c.var.services.sessions.verify(token || getCookie(c, SESSION_COOKIE))
    return c.json({ isValid: session !== null })
  })
  .post('/refresh', async (c) => {
    const { firebase, config, sessions, createCustomToken } = c.var.services
    // Checked afresh, not from the cache: signing in with a custom token would recreate a user
    // deleted in the last few seconds.
    const session = await sessions.verifyNow(getCookie(c, SESSION_COOKIE))
    if (!session) throw httpError('unauthenticated')
    const { uid } = session
    const idToken = await idTokenForCustomToken(config.identityToolkit, await createCustomToken(uid))
    const sessionCookie = await firebase.auth.createSessionCookie(idToken, { expiresIn: config.sessionMaxAgeMs })
    await sessions.admit(sessionCookie)
    setSessionCookies(c, sessionCookie, uid)
    return c.json({ userId: uid })
  })
  .post('/token', async (c) => {
    // A browser that holds a session but no signed-in Auth user (REQ-SESSION-3: a valid session loads the
    // user; Auth's own storage may be gone or never made on this device) signs Auth in with this.
    const { sessions, createCustomToken } = c.var.services
    const session = await sessions.verify(getCookie(c, SESSION_COOKIE))
    if (!session) throw httpError('unauthenticated')
    c.header('Cache-Control', 'no-store')
    return c.json({ customToken: await createCustomToken(session.uid) })
  })
  .post('/logout-everywhere', async (c) => {
    // "Log ud på alle enheder": every session of the account ends, this device's too.
    const { firebase, sessions } = c.var.services
    const cookie = getCookie(c, SESSION_COOKIE)
    clearSessionCookies(c)
    const session = await sessions.verify(cookie)
    if (!session || cookie === undefined) throw httpError('unauthenticated', { message: da.errors.logoutFailed })
    await firebase.auth.revokeRefreshTokens(session.uid)
    sessions.forget(cookie, session.uid, session.exp * 1000)
    await sessions.end(cookie, session.exp * 1000)
    return c.json({ success: true })
  })
  .post('/logout', async (c) => {
    const { sessions, config, firebase } = c.var.services
    const cookie = getCookie(c, SESSION_COOKIE)
    // The cookies go whatever happens: a browser must never be left half signed in.
    clearSessionCookies(c)
    const refreshToken = await deviceRefreshToken(c)
    try {
      const session = await sessions.verify(cookie)
      if (!session) throw httpError('unauthenticated', { message: da.errors.logoutFailed })
      // This device's session only: the same account on the ward tablet carries on (issue 32).
      if (cookie !== undefined) await sessions.end(cookie, session.exp * 1000)
    } catch (error) {
      if (error instanceof HttpError) throw error
      if (isUnavailable(error)) throw httpError('unavailable', { message: da.errors.logoutFailed })
      console.error('[api] logout failed:', error)
      throw httpError('internal', { message: da.errors.logoutFailed })
    } finally {
      // And this device's Firebase refresh token, where the backend can end one token (emulator-lite;
      // a real project cannot): a copy of it taken before "Log ud" no longer signs anyone in. Holding
      // the token is all it takes to use it, so ending it needs nothing more. Never fails the logout.
      if (refreshToken !== undefined)
        await revokeDeviceRefreshToken(config.identityToolkit, firebase.projectId, refreshToken)
    }
    return c.json({ success: true })
  })

/**
 * Passwords that belong to their owner (docs/decisions/0023-passwords.md): the policy the web shows,
 * changing one's own (other sessions end, this one is renewed), and resetting a forgotten one by a
 * link sent by mail (Auth's out-of-band code flow) where the pilot has an SMTP relay.
 */
export const passwordRoutes = new Hono<AppEnv>()
  .get('/password-policy', (c) => {
    const { config } = c.var.services
    return c.json({
      policy: config.passwordPolicy,
      minLength: passwordMinLength(config.passwordPolicy),
      resetByMail: config.resetByMail,
    })
  })
  .post('/change-password', requireSession, validateJson(ChangePasswordRequestSchema), async (c) => {
    const { firebase, config, sessions } = c.var.services
    const { currentPassword, newPassword } = c.req.valid('json')
    const { uid } = c.var.session
    const record = await firebase.auth.getUser(uid)
    const email = record.email
    if (!email) throw httpError('forbidden')
    if (newPassword === currentPassword) {
      throw httpError('invalid_request', {
        message: da.passwords.sameAsCurrent,
        fields: { newPassword: [da.passwords.sameAsCurrent] },
      })
    }
    assertPasswordAllowed(config, newPassword, email, 'newPassword')
    // The current password is checked where passwords are (Auth), under its per-account throttle.
    await idTokenForPassword(config.identityToolkit, email, currentPassword).catch((error: unknown) =>
      passwordCheckError(error, 'currentPassword'),
    )
    await setAccountPassword(firebase, uid, newPassword, false)
    // Every other session has ended (refresh tokens revoked, cookies older than now refused); this
    // device signs in afresh with the new password and gets a new cookie.
    sessions.forget(c.var.sessionCookie, uid, c.var.session.exp * 1000)
    const idToken = await idTokenForPassword(config.identityToolkit, email, newPassword)
    const sessionCookie = await firebase.auth.createSessionCookie(idToken, { expiresIn: config.sessionMaxAgeMs })
    sessions.admit(sessionCookie)
    setSessionCookies(c, sessionCookie, uid)
    return c.json({ userId: uid })
  })
  .post('/forgot-password', validateJson(ForgotPasswordRequestSchema), async (c) => {
    const { config, accountLimiter } = c.var.services
    if (!config.resetByMail) throw httpError('not_found')
    const email = c.req.valid('json').email.toLowerCase()
    // A few mails an account a minute at most, whoever asks.
    countRefusal(accountLimiter, `reset:${email}`)
    try {
      await identityToolkit(config.identityToolkit, 'sendOobCode', { requestType: 'PASSWORD_RESET', email })
    } catch (error) {
      // The same answer whether or not the email has an account, or has had its mails for this hour.
      const quiet = ['EMAIL_NOT_FOUND', 'RESET_PASSWORD_EXCEED_LIMIT']
      if (!(error instanceof IdentityToolkitError && quiet.includes(error.reason))) throw error
    }
    return c.json({ sent: true })
  })
  .post('/reset-password', validateJson(ResetPasswordRequestSchema), async (c) => {
    const { firebase, config, sessions, loginLimiter } = c.var.services
    const { oobCode, newPassword } = c.req.valid('json')
    const invalidCode = (error: unknown): never => {
      if (!(error instanceof IdentityToolkitError && BAD_OOB_CODE.has(error.reason))) throw error
      countRefusal(loginLimiter, `address:${c.var.clientAddress}`)
      throw httpError('invalid_request', {
        message: da.passwords.resetInvalid,
        fields: { oobCode: [da.passwords.resetInvalid] },
      })
    }
    // The code's account first (the code is not used up by this), so the policy can check the email.
    const found = await identityToolkit<{ email?: unknown }>(config.identityToolkit, 'resetPassword', {
      oobCode,
    }).catch(invalidCode)
    const email = typeof found.email === 'string' ? found.email : null
    assertPasswordAllowed(config, newPassword, email, 'newPassword')
    await identityToolkit(config.identityToolkit, 'resetPassword', { oobCode, newPassword }).catch(invalidCode)
    if (email !== null) {
      const record = await firebase.auth.getUserByEmail(email)
      if (mustChangePassword(record.customClaims)) {
        const { mustChangePassword: _dropped, ...claims } = record.customClaims ?? {}
        await firebase.auth.setCustomUserClaims(record.uid, claims)
      }
      sessions.forget(undefined, record.uid, 0)
    }
    return c.json({ reset: true })
  })
