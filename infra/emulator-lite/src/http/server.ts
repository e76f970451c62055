import type { IncomingMessage } from 'node:http'
import { ApiError } from './errors.ts'

export const MAX_BODY_BYTES = 16 * 1024 * 1024

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
