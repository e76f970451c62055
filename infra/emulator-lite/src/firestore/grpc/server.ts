import http2, { type Http2Server, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2'
import { type CoreDeps, type Ctx, type Listener, settle } from '../../http/core.ts'
import { ApiError, invalid } from '../../http/errors.ts'
import { MAX_BODY_BYTES } from '../../http/server.ts'
import { batchGet } from '../rpc/batch-get.ts'
import { batchWrite } from '../rpc/batch-write.ts'
import { commit } from '../rpc/commit.ts'
import { getDocument } from '../rpc/get-document.ts'
import { listCollectionIds } from '../rpc/list-collection-ids.ts'
import { listDocuments } from '../rpc/list-documents.ts'
import { runAggregationQuery } from '../rpc/run-aggregation-query.ts'
import { runQuery } from '../rpc/run-query.ts'
import { beginTransaction, rollback } from '../rpc/transactions.ts'
import { type FirestoreService, parentOf } from '../service.ts'
import { callContext, callerOf, grpcRoute, incomingOf, parseResourceName, projectOf, SERVICE_PREFIX } from './call.ts'
import { ListenSession, messageReader } from './listen.ts'
import { type Codec, firestoreMethods } from './protos.ts'
import { frame, sendStatus, splitMessages, statusOf, trailersOf } from './wire.ts'
import { writeStream } from './write.ts'

export { parseResourceName } from './call.ts'

type Call = { fs: FirestoreService; c: Ctx; body: Record<string, unknown> }
/** A unary method answers one message; a server-streaming one, an array of them. */
type Method = { target: (body: Record<string, unknown>) => unknown; run: (call: Call) => unknown }

const byDatabase = (body: Record<string, unknown>) => body.database
const byParent = (body: Record<string, unknown>) => body.parent
const dbOf = (body: Record<string, unknown>, field: string) => parseResourceName(body[field]).db

/** The methods served, each by the REST layer's handler of the same RPC (one behaviour on both transports). */
const METHODS: Record<string, Method> = {
  GetDocument: {
    target: (body) => body.name,
    run: ({ fs, c, body }) => {
      const { db, segments } = parseResourceName(body.name)
      c.set('url', urlWith({ readTime: body.readTime }))
      return getDocument(fs, c, db, segments)
    },
  },
  ListDocuments: {
    target: byParent,
    run: ({ fs, c, body }) => {
      const { db, segments } = parseResourceName(body.parent)
      if (typeof body.collectionId !== 'string' || body.collectionId === '') throw invalid('collectionId is required')
      c.set(
        'url',
        urlWith({
          pageSize: body.pageSize,
          pageToken: body.pageToken,
          showMissing: body.showMissing,
          readTime: body.readTime,
        }),
      )
      return listDocuments(fs, c, db, [...segments, body.collectionId])
    },
  },
  BatchGetDocuments: {
    target: byDatabase,
    run: ({ fs, c, body }) => batchGet(fs, c, dbOf(body, 'database'), body),
  },
  RunQuery: {
    target: byParent,
    run: ({ fs, c, body }) => {
      const { db, segments } = parseResourceName(body.parent)
      return runQuery(fs, c, db, parentOf(segments), body)
    },
  },
  RunAggregationQuery: {
    target: byParent,
    run: ({ fs, c, body }) => {
      const { db, segments } = parseResourceName(body.parent)
      return runAggregationQuery(fs, c, db, parentOf(segments), body)
    },
  },
  Commit: { target: byDatabase, run: ({ fs, c, body }) => commit(fs, c, dbOf(body, 'database'), body) },
  BatchWrite: { target: byDatabase, run: ({ fs, c, body }) => batchWrite(fs, c, dbOf(body, 'database'), body) },
  BeginTransaction: {
    target: byDatabase,
    run: ({ fs, c, body }) => beginTransaction(fs, c, dbOf(body, 'database'), body),
  },
  Rollback: { target: byDatabase, run: ({ fs, c, body }) => rollback(fs, c, dbOf(body, 'database'), body) },
  ListCollectionIds: {
    target: byParent,
    run: ({ fs, c, body }) => {
      const { db, segments } = parseResourceName(body.parent)
      return listCollectionIds(fs, c, db, parentOf(segments), body)
    },
  },
}

function urlWith(params: Record<string, unknown>): URL {
  const url = new URL('http://grpc/')
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value))
  return url
}

function readRequest(stream: ServerHttp2Stream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        reject(new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${MAX_BODY_BYTES} bytes`))
        stream.pause()
        return
      }
      chunks.push(chunk)
    })
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })
}

/**
 * Serves Firestore's gRPC API on one HTTP/2 (h2c) server, for one listener: the same identity
 * (`identify`, from the `authorization` metadata), privilege, rules and access log as REST, through
 * the REST layer's handlers and the core's `settle`; `Listen` through a ListenSession, `Write`
 * through `writeStream` (ADR 0029).
 */
export function createGrpcServer(listener: Listener, fs: FirestoreService, deps: CoreDeps): Http2Server {
  const server = http2.createServer()
  server.on('stream', (stream, headers) => {
    handle(stream, headers, listener, fs, deps).catch((error) => {
      const { code, message } = statusOf(error)
      sendStatus(stream, code, message)
    })
  })
  // A client that goes away mid-call is not an error of ours.
  server.on('sessionError', () => {})
  return server
}

async function handle(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  listener: Listener,
  fs: FirestoreService,
  deps: CoreDeps,
): Promise<void> {
  stream.on('error', () => {})
  const path = headers[':path'] ?? ''
  if (headers[':method'] !== 'POST' || !path.startsWith(SERVICE_PREFIX)) {
    stream.respond({ ':status': 404, 'content-type': 'text/plain' }, { endStream: true })
    return
  }
  const name = path.slice(SERVICE_PREFIX.length)
  const codec = firestoreMethods().get(name)
  if (name === 'Listen' && codec) return listen(stream, headers, listener, fs, deps, codec)
  if (name === 'Write' && codec) return writeStream(stream, headers, listener, fs, deps, codec)
  const method = METHODS[name]
  if (codec === undefined || method === undefined) {
    stream.resume()
    throw new ApiError('UNIMPLEMENTED', `Method ${name} is not implemented by emulator-lite yet`)
  }
  const messages = splitMessages(await readRequest(stream))
  if (messages.length !== 1) throw invalid(`Expected one request message, got ${messages.length}`)
  const body = codec.decode(messages[0] as Buffer)
  const project = projectOf(method.target(body))
  const route = grpcRoute(name, project)
  const caller = callerOf(headers, route, listener, deps, project)
  const c = callContext(route, caller, incomingOf(stream, headers), listener, deps)
  const result = method.run({ fs, c, body })
  // The rules check that must have happened and the access log, before anything leaves.
  await settle(c)
  const replies = codec.responseStream ? (result as unknown[]) : [result]
  if (stream.destroyed) return
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true })
  stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0', 'grpc-message': '' }))
  for (const reply of replies) stream.write(frame(codec.encode(reply)))
  stream.end()
}

/** The bidirectional `Listen` call: the caller is identified by the first request's database. */
function listen(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  listener: Listener,
  fs: FirestoreService,
  deps: CoreDeps,
  codec: Codec,
): void {
  let session: ListenSession | null = null
  let status = { code: 0, message: '' }
  let trailers = { 'grpc-status': '0', 'grpc-message': '' }
  const finish = (error?: ApiError) => {
    session?.close()
    if (error) {
      status = statusOf(error)
      trailers = trailersOf(status)
    }
    if (!stream.headersSent) {
      sendStatus(stream, status.code, status.message)
      return
    }
    if (!stream.writableEnded && !stream.destroyed) stream.end()
  }
  const io = {
    send: (response: Record<string, unknown>) => {
      if (!stream.writableEnded && !stream.destroyed) stream.write(frame(codec.encode(response)))
    },
    fail: (error: ApiError) => finish(error),
    buffered: () => stream.writableLength,
  }
  const read = messageReader((bytes) => {
    const request = codec.decode(bytes)
    if (session === null) {
      const project = projectOf(request.database)
      const caller = callerOf(headers, grpcRoute('Listen', project), listener, deps, project)
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true })
      stream.once('wantTrailers', () => stream.sendTrailers(trailers))
      session = new ListenSession(fs, caller, incomingOf(stream, headers), io)
    }
    session.receive(request)
  })
  stream.on('data', (chunk: Buffer) => {
    try {
      read(chunk)
    } catch (error) {
      stream.pause()
      finish(error instanceof ApiError ? error : new ApiError('INTERNAL', 'Internal error'))
    }
  })
  // The client half-closed (admin's unsubscribe, the web SDK after its idle minute): end with OK.
  stream.on('end', () => finish())
  stream.on('close', () => session?.close())
}
