import type { MiddlewareHandler } from 'hono'
import { httpError } from '../lib/http-error.ts'
import type { AppEnv } from '../lib/types.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export type OriginFacts = {
  method: string
  origin: string | undefined
  secFetchSite: string | undefined
  host: string | undefined
  allowedOrigins: readonly string[]
}

/**
 * Whether a write may proceed. Browsers send Sec-Fetch-Site and/or Origin on every cross-site POST,
 * so a write passes when Sec-Fetch-Site says same-origin, or when its Origin is the request's own
 * or an allowed one. Requests with neither header come from non-browser clients, which cannot
 * carry a victim's cookies, and pass.
 *
 * The request's own origin is recognised by host: nginx forwards `Host: $host`, which drops the
 * port, so an Origin whose host name equals a port-less Host counts as the same origin.
 */
export function isSameOriginWrite(facts: OriginFacts): boolean {
  if (SAFE_METHODS.has(facts.method)) return true
  const site = facts.secFetchSite?.toLowerCase()
  // Sec-Fetch-Site cannot be set by page scripts: the browser's own word on where the request came from.
  if (site === 'same-origin' || site === 'none') return true
  if (site === undefined && facts.origin === undefined) return true
  return isAllowedOrigin(facts)
}

function isAllowedOrigin({ origin, host, allowedOrigins }: OriginFacts): boolean {
  if (origin === undefined) return false
  if (allowedOrigins.includes(origin)) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (!host) return false
  const requestHost = host.toLowerCase()
  if (url.host === requestHost) return true
  const hasPort = /:\d+$/.test(requestHost)
  return !hasPort && url.hostname === requestHost
}

/** Refuses cross-site writes with 403 `cross_site` (SameSite=Lax already keeps the cookie off most of them). */
export const sameOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const isAllowed = isSameOriginWrite({
    method: c.req.method,
    origin: c.req.header('origin'),
    secFetchSite: c.req.header('sec-fetch-site'),
    host: c.req.header('host'),
    allowedOrigins: c.var.services.config.appOrigins,
  })
  if (!isAllowed) throw httpError('cross_site')
  await next()
}
