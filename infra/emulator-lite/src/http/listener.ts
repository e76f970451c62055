import type { IncomingMessage, ServerResponse } from 'node:http'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { Hono } from 'hono'
import type { CoreEnv } from './core.ts'

/**
 * A node:http request listener for a core app. It hands Hono a minimal request (method and URL:
 * all the router and the core read; bodies and headers come from `c.env.incoming`) instead of
 * @hono/node-server's Request wrapper, which costs ~10 µs a request against a fetch client.
 * JSON replies are already written by the handlers (`RESPONSE_ALREADY_SENT`); any other Response
 * (media, empty bodies, errors) is written here.
 */
export function nodeListener(app: Hono<CoreEnv>) {
  return async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    const request = {
      method: incoming.method ?? 'GET',
      url: `http://${incoming.headers.host ?? 'localhost'}${incoming.url ?? '/'}`,
    } as Request
    let response: Response
    try {
      response = await app.fetch(request, { incoming, outgoing })
    } catch (error) {
      console.error('emulator-lite: unexpected error', error)
      if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
      outgoing.end('{"error":{"code":500,"message":"Internal error","status":"INTERNAL"}}')
      return
    }
    if (response === RESPONSE_ALREADY_SENT || outgoing.headersSent) return
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      headers[name] = value
    })
    const body = response.body === null ? null : Buffer.from(await response.arrayBuffer())
    if (body !== null && headers['content-length'] === undefined) headers['content-length'] = String(body.length)
    outgoing.writeHead(response.status, headers)
    outgoing.end(body ?? undefined)
  }
}
