import { da, LoginRequestSchema, SESSION_COOKIE, ValidateRequestSchema } from '@bosted/domain'
import { Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { isAccountDisabled } from '../../lib/account.ts'
import { clearSessionCookies, setSessionCookies } from '../../lib/cookies.ts'
import { HttpError, httpError, isUnavailable } from '../../lib/http-error.ts'
import { idTokenForCustomToken } from '../../lib/identity-toolkit.ts'
import { isInvalidSessionError } from '../../lib/sessions.ts'
import type { AppEnv } from '../../lib/types.ts'
import { rateLimitFailures } from '../../middleware/rate-limit.ts'
import { validateJson } from '../../middleware/validate.ts'

/** Firebase's advice: only mint a session from a sign-in made in the last few minutes. */
const RECENT_SIGN_IN_S = 5 * 60

export const authRoutes = new Hono<AppEnv>()
  .post(
    '/login',
    rateLimitFailures((services) => services.loginLimiter),
    validateJson(LoginRequestSchema),
    async (c) => {
      const { firebase, config, tokens } = c.var.services
      const { idToken } = c.req.valid('json')
      let uid: string
      try {
        const decoded = await tokens.verifyIdToken(idToken)
        if (Date.now() / 1000 - decoded.auth_time > RECENT_SIGN_IN_S) throw httpError('unauthenticated')
        uid = decoded.uid
      } catch (error) {
        if (error instanceof HttpError || isInvalidSessionError(error)) throw httpError('unauthenticated')
        throw error
      }
      // A disabled person or staff member (settings.disabled) is refused, with the Danish message.
      if (await isAccountDisabled(firebase.db, uid)) throw httpError('forbidden', { message: da.login.userDisabled })
      const sessionCookie = await firebase.auth.createSessionCookie(idToken, { expiresIn: config.sessionMaxAgeMs })
      c.var.services.sessions.admit(sessionCookie)
      setSessionCookies(c, sessionCookie, uid)
      return c.json({ userId: uid })
    },
  )
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
    sessions.admit(sessionCookie)
    setSessionCookies(c, sessionCookie, uid)
    return c.json({ userId: uid })
  })
  .post('/logout', async (c) => {
    const { firebase, sessions } = c.var.services
    const cookie = getCookie(c, SESSION_COOKIE)
    // The cookies go whatever happens: a browser must never be left half signed in.
    clearSessionCookies(c)
    try {
      const session = await sessions.verify(cookie)
      if (!session) throw httpError('unauthenticated', { message: da.errors.logoutFailed })
      await firebase.auth.revokeRefreshTokens(session.uid)
      sessions.forget(cookie, session.uid, session.exp * 1000)
    } catch (error) {
      if (error instanceof HttpError) throw error
      if (isUnavailable(error)) throw httpError('unavailable', { message: da.errors.logoutFailed })
      console.error('[api] logout failed:', error)
      throw httpError('internal', { message: da.errors.logoutFailed })
    }
    return c.json({ success: true })
  })
