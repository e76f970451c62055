import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { ApiError } from './errors.ts'

export const MAX_BODY_BYTES = 16 * 1024 * 1024

export type Handler = (req: IncomingMessage, url: URL, res: ServerResponse) => Promise<void> | void

/** Reads the whole body, refusing more than MAX_BODY_BYTES with a 413 in Google's shape. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${MAX_BODY_BYTES} bytes`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** Lite posts JSON as text/plain, admin as application/json: parse whatever the content type says. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readBody(req)
  if (body.length === 0) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    throw new ApiError('INVALID_ARGUMENT', 'Invalid JSON payload received.')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError('INVALID_ARGUMENT', 'Invalid JSON payload received: expected an object.')
  }
  return parsed as Record<string, unknown>
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

function applyCors(req: IncomingMessage, res: ServerResponse, exposeHeaders: string): void {
  res.setHeader('access-control-allow-origin', req.headers.origin ?? '*')
  res.setHeader('vary', 'Origin')
  res.setHeader('access-control-allow-credentials', 'true')
  res.setHeader('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
  res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*')
  res.setHeader('access-control-expose-headers', exposeHeaders)
  res.setHeader('access-control-max-age', '3600')
}

/**
 * An HTTP server that answers CORS preflights, turns ApiError into Google's error shape and any
 * other failure into a 500 in the same shape — it never lets one request crash the process.
 */
export function createApiServer(handler: Handler, exposeHeaders = ''): Server {
  return createServer(async (req, res) => {
    applyCors(req, res, exposeHeaders)
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end()
      return
    }
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://localhost')
    } catch {
      sendJson(res, 400, new ApiError('INVALID_ARGUMENT', 'Malformed URL').toBody())
      return
    }
    try {
      await handler(req, url, res)
    } catch (error) {
      if (res.headersSent) {
        res.destroy()
        return
      }
      if (error instanceof ApiError) {
        // Drain what is left of the body so the connection stays usable.
        req.resume()
        sendJson(res, error.httpStatus, error.toBody())
        return
      }
      console.error('emulator-lite: unexpected error', error)
      sendJson(res, 500, new ApiError('INTERNAL', 'Internal error').toBody())
    }
  })
}
