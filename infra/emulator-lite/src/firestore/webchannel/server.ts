import { randomBytes } from 'node:crypto'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { AuthError } from '../../auth/errors.ts'
import { type CoreDeps, identify, type Listener, type Route } from '../../http/core.ts'
import { ApiError, invalid } from '../../http/errors.ts'
import { readBody } from '../../http/server.ts'
import { callContext, projectOf } from '../grpc/call.ts'
import { type ListenIo, ListenSession } from '../listen/session.ts'
import type { FirestoreService } from '../service.ts'
import { WriteSession } from '../write/session.ts'

/**
 * Firestore's WebChannel transport (what the full web SDK speaks in a browser for its streams;
 * docs/wire/firestore-streams.md, WebChannel): `/google.firestore.v1.Firestore/{Listen,Write}/channel`
 * on the Firestore and admin ports, HTTP/1.1 beside REST and h2c. A session is created by a POST without
 * `SID` (its `headers=` form field carries the only Authorization of the session), read through
 * hanging GETs (`RID=rpc`, streaming with `CI=0`, long polling with `CI=1`), fed by POSTs with
 * `count/ofs/reqK___data__`, and ended by `TYPE=terminate`. The Listen behind it is the same
 * `ListenSession` as gRPC's, behind Write the REST layer's commit (`write.ts`): same identity, rules,
 * Adgangslog (ADR 0029).
 */
export const CHANNEL_PATH = /^\/google\.firestore\.v1\.Firestore\/(Listen|Write)\/channel$/

/** Keepalive the client is told (`"c"` array); a noop goes out at least this often on an idle back channel. */
const KEEPALIVE_MS = 30_000
const NOOP_EVERY_MS = 25_000
/** A long poll with nothing to say answers a noop after this long unless the client asks (`TO`) otherwise. */
const LONG_POLL_MS = 25_000
/** A session nobody reads (no back channel, no request) for this long is dropped: the client went away. */
const IDLE_SESSION_MS = 120_000
/** What the official emulator answers in `"c"` (wire version 8, server version 12). */
const WIRE_VERSION = 8
const SERVER_VERSION = 12

/** Chunk framing: the length counts UTF-16 code units, which is what `string.length` counts. */
const framed = (text: string) => `${text.length}\n${text}`

type BackChannel = { res: ServerResponse; streaming: boolean; timer: NodeJS.Timeout | null }

class ChannelSession {
  /** Arrays not yet acknowledged by the client (`AID`): id and JSON text of `[id, payload]`. */
  private readonly pending: { id: number; text: string }[] = []
  private lastId = 0
  /** The last array id written to a back channel. */
  written = 0
  /** The next forward map id expected (retried POSTs re-send maps already handled). */
  nextMap = 0
  back: BackChannel | null = null
  lastSeen = Date.now()
  ended = false
  private flushScheduled = false
  readonly stream: { receive(message: Record<string, unknown>): void; close(): void }

  constructor(
    readonly sid: string,
    open: (io: ListenIo) => { receive(message: Record<string, unknown>): void; close(): void },
    private readonly onEnd: (session: ChannelSession) => void,
  ) {
    this.stream = open({
      send: (response) => this.push([response]),
      // A stream-level error reaches the SDK as a data message with a status string; it then opens a new session.
      fail: (error) => {
        this.push([error.toBody()])
        this.stream.close()
        this.ended = true
      },
      buffered: () => this.pending.reduce((sum, array) => sum + array.text.length, 0),
    })
  }

  push(payload: unknown): void {
    const id = ++this.lastId
    this.pending.push({ id, text: JSON.stringify([id, payload]) })
    if (this.back && !this.flushScheduled) {
      this.flushScheduled = true
      // Arrays queued in one turn (ADD, documents, CURRENT, the global snapshot) leave as one chunk.
      setImmediate(() => {
        this.flushScheduled = false
        this.flush()
      })
    }
  }

  /** Forgets what the client acknowledged. */
  acknowledge(aid: number): void {
    while (this.pending.length > 0 && (this.pending[0] as { id: number }).id <= aid) this.pending.shift()
  }

  /** Writes what the open back channel has not carried yet; a long poll ends after one batch. */
  flush(): void {
    const back = this.back
    if (back === null) return
    const unsent = this.pending.filter((array) => array.id > this.written)
    if (unsent.length > 0) {
      back.res.write(framed(`[${unsent.map((array) => array.text).join(',')}]`))
      this.written = (unsent.at(-1) as { id: number }).id
      this.lastSeen = Date.now()
      if (back.streaming) this.armNoop(back)
      else this.endBack()
    }
    if (this.ended && this.back !== null) {
      this.endBack()
      this.onEnd(this)
    }
  }

  /** A streaming back channel gets a noop when it has been quiet for a while (the client's watchdog is 45 s). */
  armNoop(back: BackChannel): void {
    if (back.timer) clearTimeout(back.timer)
    back.timer = setTimeout(() => this.push(['noop']), back.streaming ? NOOP_EVERY_MS : LONG_POLL_MS)
    back.timer.unref()
  }

  open(res: ServerResponse, streaming: boolean, aid: number, timeoutMs: number | null): void {
    this.endBack()
    this.acknowledge(aid)
    // Arrays after AID are (re)sent: the previous back channel may have lost them.
    this.written = aid
    const back: BackChannel = { res, streaming, timer: null }
    this.back = back
    this.lastSeen = Date.now()
    res.on('close', () => {
      if (back.timer) clearTimeout(back.timer)
      if (this.back === back) this.back = null
      this.lastSeen = Date.now()
    })
    if (this.pending.some((array) => array.id > this.written)) {
      this.flush()
      return
    }
    if (streaming) {
      // A first byte at once: the SDK's buffering-proxy detector switches to long polling otherwise.
      this.push(['noop'])
      return
    }
    back.timer = setTimeout(() => this.push(['noop']), timeoutMs ?? LONG_POLL_MS)
    back.timer.unref()
  }

  endBack(): void {
    const back = this.back
    if (back === null) return
    this.back = null
    if (back.timer) clearTimeout(back.timer)
    if (!back.res.writableEnded) back.res.end()
  }

  terminate(): void {
    this.ended = true
    this.stream.close()
    this.endBack()
  }
}

function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin
  return {
    'access-control-allow-origin': origin ?? '*',
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'x-client-wire-protocol, x-http-session-id, x-http-initial-response',
    vary: 'Origin',
  }
}

const TEXT_HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
}

/** The Authorization among the init headers (`Name:value\r\n…`, the `headers=` form field or legacy `$httpHeaders`). */
export function authorizationOf(block: string | null): string | undefined {
  if (block === null) return undefined
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'authorization') return line.slice(colon + 1).trim()
  }
  return undefined
}

/** The messages of a forward request in id order: `count=N&ofs=M&req0___data__=…`. */
export function forwardMaps(form: URLSearchParams): { id: number; message: Record<string, unknown> }[] {
  const count = Number(form.get('count') ?? 0)
  const ofs = Number(form.get('ofs') ?? 0)
  if (!Number.isInteger(count) || !Number.isInteger(ofs) || count < 0 || ofs < 0) throw invalid('Bad count or ofs')
  const maps: { id: number; message: Record<string, unknown> }[] = []
  for (let k = 0; k < count; k++) {
    const data = form.get(`req${k}___data__`)
    if (data === null) throw invalid(`Missing req${k}___data__`)
    let message: unknown
    try {
      message = JSON.parse(data)
    } catch {
      throw invalid('Invalid JSON payload received.')
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      throw invalid('Invalid JSON payload received: expected an object.')
    maps.push({ id: ofs + k, message: message as Record<string, unknown> })
  }
  return maps
}

/**
 * An error as the status the SDK is sent (a request's answer, or a stream's data message); anything
 * unexpected is logged, and INTERNAL.
 */
function channelError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  if (error instanceof AuthError) return new ApiError('UNAUTHENTICATED', error.message)
  console.error('emulator-lite: WebChannel', error)
  return new ApiError('INTERNAL', 'Internal error')
}

function channelRoute(method: string): Route {
  return {
    name: `firestore.webchannel.${method}`,
    method: 'POST',
    path: `/google.firestore.v1.Firestore/${method}/channel`,
    service: 'firestore',
    rules: 'firestore',
    handler: () => {
      throw new Error('not a Hono route')
    },
  }
}

/**
 * Puts the WebChannel endpoints in front of a listener's HTTP/1 request handler (every other path
 * goes on to it). Returns a function that ends every session, for closing the server.
 */
export function acceptWebChannel(server: Server, listener: Listener, fs: FirestoreService, deps: CoreDeps): () => void {
  const rest = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[]
  server.removeAllListeners('request')
  const sessions = new Map<string, ChannelSession>()
  const drop = (session: ChannelSession) => {
    session.terminate()
    sessions.delete(session.sid)
  }
  const sweeper = setInterval(() => {
    const now = Date.now()
    for (const session of sessions.values())
      if (session.back === null && now - session.lastSeen > IDLE_SESSION_MS) drop(session)
  }, IDLE_SESSION_MS / 4)
  sweeper.unref()

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const match = CHANNEL_PATH.exec(url.pathname)
    if (match === null) {
      for (const handler of rest) handler.call(server, req, res)
      return
    }
    handle(match[1] as string, url, req, res).catch((error: unknown) => {
      const apiError = channelError(error)
      if (res.headersSent) {
        res.destroy()
        return
      }
      req.resume()
      res.writeHead(apiError.httpStatus, { ...corsHeaders(req), 'content-type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify(apiError.toBody()))
    })
  })

  async function handle(method: string, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const cors = corsHeaders(req)
    if (req.method === 'OPTIONS') {
      req.resume()
      res.writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '3600',
      })
      res.end()
      return
    }
    const params = url.searchParams
    const sid = params.get('SID')
    if (sid === null) {
      if (req.method !== 'POST') throw invalid('A WebChannel session starts with a POST')
      return handshake(method, url, req, res)
    }
    const session = sessions.get(sid)
    if (session === undefined || session.ended) {
      // The SDK treats this as a channel error and opens a new session, re-adding its targets by resume token.
      req.resume()
      res.writeHead(400, { ...cors, ...TEXT_HEADERS })
      res.end('Unknown SID')
      return
    }
    session.lastSeen = Date.now()
    const aid = Number(params.get('AID') ?? 0)
    if (params.get('TYPE') === 'terminate') {
      req.resume()
      drop(session)
      res.writeHead(200, { ...cors, ...TEXT_HEADERS })
      res.end()
      return
    }
    if (req.method === 'GET' && params.get('RID') === 'rpc') {
      req.resume()
      res.writeHead(200, { ...cors, ...TEXT_HEADERS })
      const timeout = Number(params.get('TO'))
      session.open(res, params.get('CI') !== '1', aid, Number.isFinite(timeout) && timeout > 0 ? timeout : null)
      return
    }
    if (req.method !== 'POST') throw invalid('Unsupported WebChannel request')
    const form = new URLSearchParams((await readBody(req)).toString('utf8'))
    session.acknowledge(aid)
    receive(session, forwardMaps(form))
    res.writeHead(200, { ...cors, ...TEXT_HEADERS })
    res.end(framed(JSON.stringify([session.back === null ? 0 : 1, session.written, 0])))
  }

  async function handshake(method: string, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams((await readBody(req)).toString('utf8'))
    const database = url.searchParams.get('database') ?? ''
    const project = /^projects\/([^/]+)\/databases\/[^/]+$/.exec(database)?.[1] ?? ''
    // The one place a WebChannel session carries its credentials: the init headers of the handshake.
    const header = authorizationOf(form.get('headers')) ?? authorizationOf(url.searchParams.get('$httpHeaders'))
    const caller = identify(header, channelRoute(method), listener, deps, () => project)
    const maps = forwardMaps(form)
    const sid = randomBytes(12).toString('base64url')
    const session = new ChannelSession(
      sid,
      (io) =>
        method === 'Listen'
          ? new ListenSession(fs, caller, req, io)
          : new WriteSession(
              fs,
              {
                // The channel's caller, from the init headers of its handshake.
                callerFor: () => caller,
                contextFor: (writer, name) =>
                  callContext({ ...channelRoute(method), project: projectOf(name) }, writer, req, listener, deps),
              },
              // A clean end (the client's last request) needs nothing: the SDK terminates the channel.
              { send: io.send, end: (error) => (error === undefined ? undefined : io.fail(channelError(error))) },
            ),
      (ended) => sessions.delete(ended.sid),
    )
    sessions.set(sid, session)
    res.writeHead(200, { ...corsHeaders(req), ...TEXT_HEADERS })
    res.end(framed(JSON.stringify([[0, ['c', sid, '', WIRE_VERSION, SERVER_VERSION, KEEPALIVE_MS]]])))
    receive(session, maps)
  }

  function receive(session: ChannelSession, maps: { id: number; message: Record<string, unknown> }[]): void {
    for (const { id, message } of maps) {
      // A retried POST re-sends maps already handled.
      if (id < session.nextMap) continue
      session.nextMap = id + 1
      session.stream.receive(message)
    }
  }

  return () => {
    clearInterval(sweeper)
    for (const session of sessions.values()) drop(session)
  }
}
