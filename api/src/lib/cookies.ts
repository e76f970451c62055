import { SESSION_COOKIE, USER_ID_COOKIE } from '@bosted/domain'
import type { Context } from 'hono'
import { deleteCookie, setCookie } from 'hono/cookie'
import type { AppConfig, AppEnv } from './types.ts'

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** `auto`: Secure everywhere but on localhost, where browsers would drop a Secure cookie sent over http. */
export function isSecureCookie(setting: AppConfig['cookieSecure'], requestUrl: string): boolean {
  if (setting !== 'auto') return setting
  return !LOCAL_HOSTS.has(new URL(requestUrl).hostname)
}

/** Sets `session` (HttpOnly) and `userId` (readable: only a presence marker for the web's route guard). */
export function setSessionCookies(c: Context<AppEnv>, sessionCookie: string, uid: string): void {
  const { config } = c.var.services
  const base = {
    path: '/',
    sameSite: 'Lax' as const,
    secure: isSecureCookie(config.cookieSecure, c.req.url),
    maxAge: Math.floor(config.sessionMaxAgeMs / 1000),
  }
  setCookie(c, SESSION_COOKIE, sessionCookie, { ...base, httpOnly: true })
  setCookie(c, USER_ID_COOKIE, uid, base)
}

export function clearSessionCookies(c: Context<AppEnv>): void {
  const secure = isSecureCookie(c.var.services.config.cookieSecure, c.req.url)
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure, httpOnly: true, sameSite: 'Lax' })
  deleteCookie(c, USER_ID_COOKIE, { path: '/', secure, sameSite: 'Lax' })
}
