import { SESSION_COOKIE } from '@bosted/domain'
import type { MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { httpError } from '../lib/http-error.ts'
import type { AppEnv } from '../lib/types.ts'

/** 401 `unauthenticated` unless the `session` cookie is a valid, unrevoked Firebase session. */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const cookie = getCookie(c, SESSION_COOKIE)
  const session = await c.var.services.sessions.verify(cookie)
  if (!session || !cookie) throw httpError('unauthenticated')
  c.set('session', session)
  c.set('sessionCookie', cookie)
  await next()
}
