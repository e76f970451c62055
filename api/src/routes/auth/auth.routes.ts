import { da, LoginRequestSchema, SESSION_COOKIE, ValidateRequestSchema } from '@bosted/domain'
import { Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { isAccountDisabled } from '../../lib/account.ts'
import { clearSessionCookies, setSessionCookies } from '../../lib/cookies.ts'
import { HttpError, httpError, isUnavailable } from '../../lib/http-error.ts'
import { idTokenForCustomToken } from '../../lib/identity-toolkit.ts'
import { isInvalidSessionError } from '../../lib/sessions.ts'
import type { AppEnv } from '../../lib/types.ts'
import { countRefusal } from '../../middleware/rate-limit.ts'
import { validateJson } from '../../middleware/validate.ts'

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
    // A browser that holds a session but no signed-in Auth user (SPEC §4: a valid session loads the
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
    const { sessions } = c.var.services
    const cookie = getCookie(c, SESSION_COOKIE)
    // The cookies go whatever happens: a browser must never be left half signed in.
    clearSessionCookies(c)
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
    }
    return c.json({ success: true })
  })
