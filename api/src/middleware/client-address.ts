import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import type { MiddlewareHandler } from 'hono'
import type { AppConfig, AppEnv } from '../lib/types.ts'

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/

/**
 * The client's address for rate limiting. Proxy headers (X-Real-IP, then the first X-Forwarded-For)
 * count only when the peer is trusted: by default a loopback peer, i.e. nginx or the Node fallback
 * on the same machine. Requests without a socket (app.request in tests) are treated as loopback.
 */
export function clientAddressOf(
  peer: string | undefined,
  headers: { realIp?: string | undefined; forwardedFor?: string | undefined },
  trustProxy: AppConfig['trustProxy'],
): string {
  const trusted = trustProxy === 'all' || (trustProxy === 'loopback' && (peer === undefined || LOOPBACK.test(peer)))
  if (trusted) {
    const forwarded = [headers.realIp, headers.forwardedFor?.split(',')[0]]
      .map((value) => value?.trim())
      .find((value) => value && isIP(value) !== 0)
    if (forwarded) return forwarded
  }
  return peer ?? 'local'
}

export const clientAddress: MiddlewareHandler<AppEnv> = async (c, next) => {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  c.set(
    'clientAddress',
    clientAddressOf(
      incoming?.socket.remoteAddress,
      { realIp: c.req.header('x-real-ip'), forwardedFor: c.req.header('x-forwarded-for') },
      c.var.services.config.trustProxy,
    ),
  )
  await next()
}
