import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2'
import type { CoreDeps, Listener } from '../../http/core.ts'
import { ApiError } from '../../http/errors.ts'
import { MAX_BODY_BYTES } from '../../http/server.ts'
import type { FirestoreService } from '../service.ts'
import { WriteSession } from '../write/session.ts'
import { callContext, callerOf, grpcRoute, incomingOf, projectOf } from './call.ts'
import type { Codec } from './protos.ts'
import { boundedMessageReader, frame, sendStatus, statusOf, trailersOf } from './wire.ts'

/**
 * Requests read ahead of the one being applied; beyond, the stream stops reading and HTTP/2's flow
 * control holds the client (the SDKs keep at most 10 batches outstanding).
 */
export const WRITE_READ_AHEAD = 32

/**
 * The bidirectional `Write` call over gRPC: the stream's `WriteSession` (`write/session.ts`) fed
 * with the call's messages, read ahead up to `WRITE_READ_AHEAD`; its answers framed, its end sent as
 * the call's status (trailers only when it ends before its first answer).
 */
export function writeStream(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  listener: Listener,
  fs: FirestoreService,
  deps: CoreDeps,
  codec: Codec,
): void {
  let trailers = { 'grpc-status': '0', 'grpc-message': '' }
  let waiting = 0
  const incoming = incomingOf(stream, headers)
  const route = (database: string) => grpcRoute('Write', projectOf(database))
  const session = new WriteSession(
    fs,
    {
      callerFor: (database) => callerOf(headers, route(database), listener, deps, projectOf(database)),
      contextFor: (caller, database) => callContext(route(database), caller, incoming, listener, deps),
    },
    {
      send(response) {
        if (stream.writableEnded || stream.destroyed) return
        if (!stream.headersSent) {
          stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true })
          stream.once('wantTrailers', () => stream.sendTrailers(trailers))
        }
        stream.write(frame(codec.encode(response)))
      },
      end(error) {
        stream.pause()
        const status = error === undefined ? { code: 0, message: '' } : statusOf(error)
        if (!stream.headersSent) {
          sendStatus(stream, status.code, status.message)
          return
        }
        trailers = trailersOf(status)
        if (!stream.writableEnded && !stream.destroyed) stream.end()
      },
    },
  )

  const read = boundedMessageReader(MAX_BODY_BYTES, (bytes) => {
    const request = codec.decode(bytes)
    if (++waiting >= WRITE_READ_AHEAD) stream.pause()
    void session.receive(request).finally(() => {
      if (--waiting < WRITE_READ_AHEAD && !session.ended && stream.isPaused()) stream.resume()
    })
  })
  stream.on('data', (chunk: Buffer) => {
    if (session.ended) return
    try {
      read(chunk)
    } catch (error) {
      session.finish(error instanceof ApiError ? error : new ApiError('INTERNAL', 'Internal error'))
    }
  })
  // The client half-closed: what it sent is applied, then the call ends with OK.
  stream.on('end', () => session.finish())
  stream.on('close', () => session.close())
}
