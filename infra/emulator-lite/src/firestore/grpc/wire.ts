import http2, { type ServerHttp2Stream } from 'node:http2'
import { AuthError } from '../../auth/errors.ts'
import { ApiError, invalid } from '../../http/errors.ts'

/** gRPC status codes (grpc/doc/statuscodes.md), by Google API status. */
export const GRPC_STATUS: Record<string, number> = {
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  PAYLOAD_TOO_LARGE: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
}

/** Length-prefixed gRPC messages (compressed flag, 4-byte length, bytes) out of a request body. */
export function splitMessages(body: Buffer): Buffer[] {
  const messages: Buffer[] = []
  let offset = 0
  while (offset < body.length) {
    if (body.length - offset < 5) throw invalid('Truncated gRPC message')
    if (body[offset] !== 0)
      throw new ApiError('UNIMPLEMENTED', 'Compressed gRPC messages are not supported by emulator-lite')
    const length = body.readUInt32BE(offset + 1)
    if (offset + 5 + length > body.length) throw invalid('Truncated gRPC message')
    messages.push(body.subarray(offset + 5, offset + 5 + length))
    offset += 5 + length
  }
  return messages
}

/**
 * The messages of a client stream as its chunks arrive; a message announced larger than `limit`
 * bytes is refused before it is buffered (the bound REST puts on a request body).
 */
export function boundedMessageReader(limit: number, onMessage: (message: Buffer) => void) {
  let pending: Buffer = Buffer.alloc(0)
  return (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    while (pending.length >= 5) {
      if (pending[0] !== 0)
        throw new ApiError('UNIMPLEMENTED', 'Compressed gRPC messages are not supported by emulator-lite')
      const length = pending.readUInt32BE(1)
      if (length > limit) throw new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`)
      if (pending.length < 5 + length) break
      onMessage(pending.subarray(5, 5 + length))
      pending = pending.subarray(5 + length)
    }
  }
}

export function frame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length)
  out[0] = 0
  out.writeUInt32BE(message.length, 1)
  out.set(message, 5)
  return out
}

export function statusOf(error: unknown): { code: number; message: string } {
  if (error instanceof ApiError) return { code: GRPC_STATUS[error.status] ?? 2, message: error.message }
  if (error instanceof AuthError) return { code: 16, message: error.message }
  console.error('emulator-lite: unexpected gRPC error', error)
  return { code: 13, message: 'Internal error' }
}

/** `grpc-message` as the gRPC spec encodes it: printable ASCII but `%` as is, every other byte %XX. */
export function grpcMessage(message: string): string {
  let out = ''
  for (const byte of Buffer.from(message, 'utf8'))
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  return out
}

/** The trailers of a status. */
export function trailersOf(status: { code: number; message: string }) {
  return { 'grpc-status': String(status.code), 'grpc-message': grpcMessage(status.message) }
}

/** A reply that is only trailers: how gRPC answers an error before any message. */
export function sendStatus(stream: ServerHttp2Stream, code: number, message: string): void {
  if (stream.destroyed || stream.closed) return
  if (!stream.headersSent) {
    stream.respond(
      { ':status': 200, 'content-type': 'application/grpc', ...trailersOf({ code, message }) },
      { endStream: true },
    )
    return
  }
  // Too late for a status in the trailers: cut the stream so the client sees a failure.
  stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR)
}
