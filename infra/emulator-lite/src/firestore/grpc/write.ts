import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2'
import { type CoreDeps, type Listener, settle } from '../../http/core.ts'
import { ApiError, invalid } from '../../http/errors.ts'
import { MAX_BODY_BYTES } from '../../http/server.ts'
import type { Caller } from '../../security/caller.ts'
import type { DatabaseRef } from '../paths.ts'
import { guardedWrites } from '../rpc/commit.ts'
import type { FirestoreService } from '../service.ts'
import { callContext, callerOf, grpcRoute, incomingOf, parseResourceName, projectOf } from './call.ts'
import type { Codec } from './protos.ts'
import { boundedMessageReader, frame, sendStatus, statusOf, trailersOf } from './wire.ts'

/**
 * Requests read ahead of the one being applied; beyond, the stream stops reading and HTTP/2's flow
 * control holds the client (the SDKs keep at most 10 batches outstanding).
 */
export const WRITE_READ_AHEAD = 32

/** Stream ids count up over the process, as the official emulator's do ("0", "1", …). */
let nextStreamId = 0

/** A stream token: the number of responses sent before it, base64 of its decimal digits (the emulator's `MA==`, `MQ==`). */
const tokenOf = (count: number) => Buffer.from(String(count)).toString('base64')

const hasWrites = (request: Record<string, unknown>) => Array.isArray(request.writes) && request.writes.length > 0

/**
 * The bidirectional `Write` call of the full SDKs (ADR 0029): a handshake (the first request names
 * the database and nothing else; the answer is a stream id and token), then one atomic commit per
 * request — the REST `:commit` writes path with the same identity, rules, limits and Adgangslog, acked
 * after its entries are stored, as REST answers — each answered with the next token, the write
 * results and the commit time. A request without writes is the client's last: answered with a token,
 * then the call ends with OK. The first error ends the call with its status; requests after it are
 * not applied (the SDK re-sends them on a new stream).
 */
export function writeStream(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  listener: Listener,
  fs: FirestoreService,
  deps: CoreDeps,
  codec: Codec,
): void {
  let session: { database: string; db: DatabaseRef; caller: Caller; sent: number } | null = null
  let trailers = { 'grpc-status': '0', 'grpc-message': '' }
  let done = false
  let queue: Promise<void> = Promise.resolve()
  let waiting = 0
  const incoming = incomingOf(stream, headers)

  const finish = (error?: unknown) => {
    if (done) return
    done = true
    stream.pause()
    if (error !== undefined) {
      const status = statusOf(error)
      if (!stream.headersSent) {
        sendStatus(stream, status.code, status.message)
        return
      }
      trailers = trailersOf(status)
    }
    if (!stream.headersSent) {
      sendStatus(stream, 0, '')
      return
    }
    if (!stream.writableEnded && !stream.destroyed) stream.end()
  }
  const send = (response: Record<string, unknown>) => {
    if (!stream.writableEnded && !stream.destroyed) stream.write(frame(codec.encode(response)))
  }

  const handshake = (request: Record<string, unknown>) => {
    if (request.database === undefined || request.database === '')
      throw invalid("'database' must be set on an initial write request.")
    if (request.streamToken !== undefined && request.streamToken !== '')
      throw invalid("Resuming streams is not supported, 'stream_token' must not be set on an initial write request.")
    if (hasWrites(request)) throw invalid("'writes' must not be set on an initial write request.")
    const database = String(request.database)
    const { db, segments } = parseResourceName(database)
    if (segments.length > 0 || database.endsWith('/documents')) throw invalid(`Invalid database name: ${database}`)
    const caller = callerOf(headers, grpcRoute('Write', projectOf(database)), listener, deps, projectOf(database))
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true })
    stream.once('wantTrailers', () => stream.sendTrailers(trailers))
    session = { database, db, caller, sent: 0 }
    send({ streamId: String(nextStreamId++), streamToken: tokenOf(session.sent++) })
  }

  const apply = async (request: Record<string, unknown>) => {
    const current = session as NonNullable<typeof session>
    if (request.database !== undefined && request.database !== '' && request.database !== current.database)
      throw invalid(
        `Request specified a database (${String(request.database)}) that did not match the expected database (${current.database})`,
      )
    if (!hasWrites(request)) {
      // The client's last request (its idle close): answered, then the call ends.
      send({ streamToken: tokenOf(current.sent++) })
      finish()
      return
    }
    const route = grpcRoute('Write', projectOf(current.database))
    const c = callContext(route, current.caller, incoming, listener, deps)
    // A WriteRequest has no transaction: the REST commit's writes path, logged as `…Firestore.Write`.
    const result = guardedWrites(fs, c, current.db, request.writes, 'Write') as Record<string, unknown>
    // The rules check that must have happened and the Adgangslog entries, before the ack leaves.
    await settle(c)
    if (done) return
    send({ streamToken: tokenOf(current.sent++), ...result })
  }

  const read = boundedMessageReader(MAX_BODY_BYTES, (bytes) => {
    const request = codec.decode(bytes)
    if (++waiting >= WRITE_READ_AHEAD) stream.pause()
    // One request after the other, each acked before the next is applied.
    queue = queue.then(async () => {
      try {
        if (done) return
        if (session === null) handshake(request)
        else await apply(request)
      } catch (error) {
        finish(error)
      } finally {
        if (--waiting < WRITE_READ_AHEAD && !done && stream.isPaused()) stream.resume()
      }
    })
  })
  stream.on('data', (chunk: Buffer) => {
    if (done) return
    try {
      read(chunk)
    } catch (error) {
      queue = queue.then(() => finish(error instanceof ApiError ? error : new ApiError('INTERNAL', 'Internal error')))
    }
  })
  // The client half-closed: what it sent is applied, then the call ends with OK.
  stream.on('end', () => {
    queue = queue.then(() => finish())
  })
  stream.on('close', () => {
    done = true
  })
}
