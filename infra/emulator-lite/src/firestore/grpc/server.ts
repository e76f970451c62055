import type { IncomingMessage } from 'node:http'
import http2, { type Http2Server, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2'
import { AuthError } from '../../auth/errors.ts'
import { AccessWriter, type CoreDeps, type Ctx, identify, type Listener, type Route, settle } from '../../http/core.ts'
import { ApiError, invalid } from '../../http/errors.ts'
import { MAX_BODY_BYTES } from '../../http/server.ts'
import type { DatabaseRef } from '../paths.ts'
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
import { ListenSession, messageReader } from './listen.ts'
import { type Codec, firestoreMethods } from './protos.ts'

/** gRPC status codes (grpc/doc/statuscodes.md), by Google API status. */
const GRPC_STATUS: Record<string, number> = {
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

const SERVICE_PREFIX = '/google.firestore.v1.Firestore/'

/** `projects/{p}/databases/{d}/documents{/path}` (or just `projects/{p}/databases/{d}`) split into its parts. */
export function parseResourceName(name: unknown): { db: DatabaseRef; segments: string[] } {
  if (typeof name !== 'string') throw invalid('A resource name is required')
  const match = /^projects\/([^/]+)\/databases\/([^/]+)(?:\/documents(?:\/(.*))?)?$/.exec(name)
  if (!match) throw invalid(`Invalid resource name: ${name}`)
  const rest = match[3] ?? ''
  return {
    db: { project: match[1] as string, database: match[2] as string },
    segments: rest === '' ? [] : rest.split('/'),
  }
}

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

/** Length-prefixed gRPC messages (compressed flag, 4-byte length, bytes) out of a request body. */
function splitMessages(body: Buffer): Buffer[] {
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

function frame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length)
  out[0] = 0
  out.writeUInt32BE(message.length, 1)
  out.set(message, 5)
  return out
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

function statusOf(error: unknown): { code: number; message: string } {
  if (error instanceof ApiError) return { code: GRPC_STATUS[error.status] ?? 2, message: error.message }
  if (error instanceof AuthError) return { code: 16, message: error.message }
  console.error('emulator-lite: unexpected gRPC error', error)
  return { code: 13, message: 'Internal error' }
}

/** `grpc-message` as the gRPC spec encodes it: printable ASCII but `%` as is, every other byte %XX. */
function grpcMessage(message: string): string {
  let out = ''
  for (const byte of Buffer.from(message, 'utf8'))
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  return out
}

/** A reply that is only trailers: how gRPC answers an error before any message. */
function sendStatus(stream: ServerHttp2Stream, code: number, message: string): void {
  if (stream.destroyed || stream.closed) return
  const trailers = { 'grpc-status': String(code), 'grpc-message': grpcMessage(message) }
  if (!stream.headersSent) {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc', ...trailers }, { endStream: true })
    return
  }
  // Too late for a status in the trailers: cut the stream so the client sees a failure.
  stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR)
}

/**
 * Serves Firestore's gRPC API on one HTTP/2 (h2c) server, for one listener: the same identity
 * (`identify`, from the `authorization` metadata), privilege, rules and access log as REST, through
 * the REST layer's handlers and the core's `settle`; `Listen` through a ListenSession. Write is not served yet (ADR 0029).
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
  const method = METHODS[name]
  if (codec === undefined || method === undefined) {
    stream.resume()
    throw new ApiError('UNIMPLEMENTED', `Method ${name} is not implemented by emulator-lite yet`)
  }
  const messages = splitMessages(await readRequest(stream))
  if (messages.length !== 1) throw invalid(`Expected one request message, got ${messages.length}`)
  const body = codec.decode(messages[0] as Buffer)
  const target = method.target(body)
  const project = () => {
    try {
      return parseResourceName(target).db.project
    } catch {
      return ''
    }
  }
  const route = grpcRoute(name, path, project)
  const caller = identify(authorizationOf(headers), route, listener, deps, project)
  const incoming = incomingOf(stream, headers)
  const vars = new Map<string, unknown>([
    ['route', route],
    ['listener', listener],
    ['caller', caller],
    ['url', new URL('http://grpc/')],
    ['rulesDecided', false],
    ['access', new AccessWriter(caller, incoming)],
    ['settle', { route, deps, done: false }],
  ])
  const c = {
    get: (key: string) => vars.get(key),
    set: (key: string, value: unknown) => vars.set(key, value),
    env: { incoming },
    req: { method: 'POST' },
  } as unknown as Ctx
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

function grpcRoute(name: string, path: string, project: () => string): Route {
  return {
    name: `firestore.grpc.${name}`,
    method: 'POST',
    path,
    service: 'firestore',
    rules: 'firestore',
    project: () => project(),
    handler: () => {
      throw new Error('not an HTTP route')
    },
  }
}

const authorizationOf = (headers: IncomingHttpHeaders) =>
  Array.isArray(headers.authorization) ? headers.authorization[0] : headers.authorization

/** The recorder reads the caller's address from the request, as on REST. */
const incomingOf = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) =>
  ({ headers, socket: stream.session?.socket ?? {} }) as unknown as IncomingMessage

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
      trailers = { 'grpc-status': String(status.code), 'grpc-message': grpcMessage(status.message) }
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
      const project = () => {
        try {
          return parseResourceName(request.database).db.project
        } catch {
          return ''
        }
      }
      const route = grpcRoute('Listen', `${SERVICE_PREFIX}Listen`, project)
      const caller = identify(authorizationOf(headers), route, listener, deps, project)
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
