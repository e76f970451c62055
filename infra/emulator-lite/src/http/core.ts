import type { IncomingMessage } from 'node:http'
import type { HttpBindings } from '@hono/node-server'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { PatternRouter } from 'hono/router/pattern-router'
import type { AccessRecorder } from '../audit/recorder.ts'
import { AuthError } from '../auth/errors.ts'
import type { RulesAuth } from '../rules/index.ts'
import type { Caller } from '../security/caller.ts'
import { type DiskState, diskFullApiError, diskFullAuthError, isDiskFullError } from '../store/disk-state.ts'
import { writeJsonBody } from './compression.ts'
import { ApiError } from './errors.ts'
import { MAX_BODY_BYTES } from './server.ts'

/**
 * The listeners emulator-lite opens. The three browser-facing ones serve one service each and never
 * take a word for privilege; `admin` serves all three together and is handed only to servers.
 */
export type Listener = 'firestore' | 'storage' | 'auth' | 'admin'
export type Service = 'firestore' | 'storage' | 'auth'

/**
 * Checks an ID token for `project` and returns it as the rules' `request.auth`, or null when it is
 * not to be believed (then the caller is anonymous). Injected: the core never verifies tokens itself.
 */
export type VerifyIdToken = (token: string, project: string) => RulesAuth | null

export type CoreEnv = {
  Bindings: HttpBindings
  Variables: {
    route: Route
    listener: Listener
    caller: Caller
    url: URL
    /** The access-log writer of this request, bound to its caller: written after the handler succeeds. */
    access: AccessWriter
    /** The CORS headers of this request's reply (none on the Auth listener: it sets its own). */
    cors: Record<string, string> | undefined
    /** Set by the guards when the rules decided something for this request. */
    rulesDecided: boolean
    /**
     * What must happen before a successful reply leaves (the rules check, the access-log write): run
     * once by `settle`, from the response helpers or, for any other response, by the middleware.
     */
    settle: { route: Route; deps: CoreDeps; done: boolean }
  }
}
export type Ctx = Context<CoreEnv>

export type Route = {
  /** `service.operation`, for messages and tests. */
  name: string
  method: string
  /** A Hono path pattern. */
  path: string
  service: Service
  /**
   * A management endpoint (rules, resets, the GCS JSON API, Auth's control plane): refused on the
   * browser-facing listeners unless the request carries the admin secret.
   */
  management?: boolean
  /**
   * The route serves clients' data under security rules: a request of an unprivileged caller must
   * reach a rules decision (firestore guard / storage guard) before anything is answered.
   */
  rules?: 'firestore' | 'storage'
  /** The project whose ID tokens this request may carry (Firestore: the path's; Storage: the bucket's). */
  project?: (c: Ctx) => string
  handler: (c: Ctx) => Response | Promise<Response>
}

/** Records an access; a promise when the entry is group-committed (the reply waits for it). */
type AccessEntry = (recorder: AccessRecorder) => void | Promise<void>

/** Queues access-log entries; the access-log middleware writes them once the handler has succeeded. */
export class AccessWriter {
  readonly entries: AccessEntry[] = []
  constructor(
    readonly caller: Caller,
    readonly req: IncomingMessage,
  ) {}
  add(entry: AccessEntry): void {
    this.entries.push(entry)
  }
}

export type CoreDeps = {
  verifyIdToken: VerifyIdToken
  /** The admin secret: presented as `Bearer <secret>` / `Firebase <secret>` it is privileged everywhere. */
  adminSecret: string
  recorder: AccessRecorder | null
  /** Whether a ruleset applies to this route's request (else no decision is needed). */
  rulesActive(route: Route, c: Ctx): boolean
  /** Whether the data disk has room (ADR 0018); without it, a lack of space is still answered RESOURCE_EXHAUSTED. */
  disk?: DiskState | null
}

const STORAGE_EXPOSE_HEADERS =
  'x-goog-upload-url, x-goog-upload-status, x-goog-upload-chunk-granularity, x-goog-upload-control-url, x-goog-upload-size-received, x-goog-upload-content-type, x-goog-upload-command, x-goog-upload-header-content-type'

/**
 * CORS of the Firestore and Storage listeners (and the admin one): any origin, with credentials.
 * The headers ride in the reply's own header object (the JSON fast path writes them with the
 * status line; other replies get them added), which costs less than setting them one by one.
 */
function googleCors(exposeHeaders: string): MiddlewareHandler<CoreEnv> {
  return async (c, next) => {
    const req = c.env.incoming
    const headers: Record<string, string> = {
      'access-control-allow-origin': req.headers.origin ?? '*',
      vary: 'Origin',
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
      'access-control-expose-headers': exposeHeaders,
      'access-control-max-age': '3600',
    }
    if (req.method === 'OPTIONS') return c.body(null, 204, headers)
    c.set('cors', headers)
    await next()
    if (c.res !== RESPONSE_ALREADY_SENT) for (const name in headers) c.res.headers.set(name, headers[name] as string)
  }
}

/** CORS exactly as the official Auth emulator's `cors({origin:true})` plus its Private Network Access hook. */
const authCors: MiddlewareHandler<CoreEnv> = async (c, next) => {
  const req = c.env.incoming
  const res = c.env.outgoing
  const origin = req.headers.origin
  if (origin) {
    res.setHeader('access-control-allow-origin', origin)
    res.setHeader('vary', 'Origin')
  }
  if (req.method !== 'OPTIONS') return next()
  res.setHeader('access-control-allow-methods', 'GET,HEAD,PUT,PATCH,POST,DELETE')
  const requested = req.headers['access-control-request-headers']
  if (origin && requested) {
    res.setHeader('access-control-allow-headers', requested)
    res.setHeader('vary', 'Origin, Access-Control-Request-Headers')
  }
  if (req.headers['access-control-request-private-network'] === 'true')
    res.setHeader('access-control-allow-private-network', 'true')
  return c.body(null, 204, { 'content-length': '0' })
}

/** Refuses a declared body over MAX_BODY_BYTES before anything reads it; the readers stop streamed ones. */
function checkBodyLimit(route: Route, incoming: IncomingMessage): void {
  const declared = incoming.headers['content-length']
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES)
    throw route.service === 'auth'
      ? new AuthError(`Request body exceeds ${MAX_BODY_BYTES} bytes`, 400, 'INVALID_ARGUMENT')
      : new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${MAX_BODY_BYTES} bytes`)
}

const ANONYMOUS: Caller = { privileged: false, auth: null }
const PRIVILEGED: Caller = { privileged: true }

const refused = () =>
  new ApiError(
    'PERMISSION_DENIED',
    'Privileged credentials are accepted only on the admin listener or with the admin secret.',
  )

/**
 * Who is calling, from the Authorization header: the admin secret is privileged on every listener;
 * `owner` and Google OAuth access tokens (`ya29.…`, firebase-admin's) only on the admin listener, and
 * refused with 403 elsewhere; any other token is an ID token, believed only if `verifyIdToken` says so.
 */
export function identify(
  header: string | undefined,
  route: Route,
  listener: Listener,
  deps: Pick<CoreDeps, 'adminSecret' | 'verifyIdToken'>,
  project: () => string,
): Caller {
  if (header === undefined || header.trim() === '') return ANONYMOUS
  const match = /^(bearer|firebase)\s+(\S+)\s*$/i.exec(header)
  const token = match?.[2]
  if (token !== undefined && token === deps.adminSecret) return PRIVILEGED
  if (token !== undefined && (token.toLowerCase() === 'owner' || token.startsWith('ya29.'))) {
    if (listener === 'admin') return PRIVILEGED
    throw refused()
  }
  if (route.service === 'auth') {
    // Auth takes no ID token in the header: an API key, or a privileged credential.
    throw new AuthError(
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
      401,
      'UNAUTHENTICATED',
    )
  }
  if (token === undefined) throw new ApiError('UNAUTHENTICATED', 'Unsupported Authorization header')
  const auth = deps.verifyIdToken(token, project())
  return auth === null ? ANONYMOUS : { privileged: false, auth }
}

/** Refuses the management endpoints on the browser-facing listeners to any caller without privilege. */
function checkPrivilege(route: Route, listener: Listener, caller: Caller): void {
  if (route.management && listener !== 'admin' && !caller.privileged)
    throw new ApiError('PERMISSION_DENIED', `${route.name} is a management endpoint: use the admin listener.`)
}

/** Auth's writes, by path (POST): sign-ups, account changes and deletions, imports, reset codes. */
const AUTH_WRITES =
  /(?:accounts:(?:signUp|update|delete|batchCreate|batchDelete|sendOobCode|resetPassword)|\/accounts|relyingparty\/(?:signupNewUser|setAccountInfo|deleteAccount|uploadAccount))$/

/**
 * Whether a request stores something, so is refused at once while the disk is full. Firestore's
 * commits are decided where their writes are known (a commit without writes stores nothing); sign-ins
 * and token refreshes are not writes here: they are what staff need to go on reading (ADR 0018).
 */
function writesToDisk(route: Route, incoming: IncomingMessage): boolean {
  const method = incoming.method ?? 'GET'
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false
  if (route.service === 'storage') return !route.name.startsWith('storage.internal.setRules')
  if (route.service === 'auth')
    return method !== 'POST' || AUTH_WRITES.test((incoming.url ?? '').split('?')[0] as string)
  return route.name === 'firestore.clearDatabase'
}

/** A lack of space answered as what it is: RESOURCE_EXHAUSTED (Auth: QUOTA_EXCEEDED), never a 500. */
function diskFullAware(c: Ctx, error: unknown, disk: DiskState | null | undefined): unknown {
  if (error instanceof ApiError || error instanceof AuthError) return error
  if (!(disk ? disk.notice(error) : isDiskFullError(error))) return error
  const service = c.get('route')?.service ?? (c.get('listener') === 'auth' ? 'auth' : 'firestore')
  return service === 'auth' ? diskFullAuthError() : diskFullApiError()
}

/**
 * The middleware every route passes through, whatever table it comes from, in this order: body
 * limit, identity, privilege, then the handler; before a successful reply leaves, `settle` runs the
 * rules check and writes the access log. One function rather than five small ones: the chain runs
 * on every request, and each extra async layer shows in the commit p50.
 */
function routeMiddleware(route: Route, listener: Listener, deps: CoreDeps): MiddlewareHandler<CoreEnv> {
  const projectOf = (c: Ctx) => () => (route.project ? route.project(c) : '')
  return async (c, next) => {
    const incoming = c.env.incoming
    checkBodyLimit(route, incoming)
    const caller = identify(incoming.headers.authorization, route, listener, deps, projectOf(c))
    checkPrivilege(route, listener, caller)
    if (deps.disk?.isFull && writesToDisk(route, incoming)) deps.disk.assertWritable(route.service)
    c.set('route', route)
    c.set('caller', caller)
    c.set('rulesDecided', false)
    c.set('access', new AccessWriter(caller, incoming))
    c.set('settle', { route, deps, done: false })
    await next()
    // Not after an error (onError answered it): nothing succeeded.
    if (c.error === undefined) await settle(c)
  }
}

function sendError(c: Ctx, error: unknown): Response {
  // Drain what is left of the body so the connection stays usable.
  if (!c.env.incoming.readableEnded) c.env.incoming.resume()
  if (c.env.outgoing.headersSent) {
    // Too late for an error in the body: cut the connection so the client sees a failure.
    c.env.outgoing.destroy()
    return RESPONSE_ALREADY_SENT
  }
  if (error instanceof AuthError)
    return c.body(JSON.stringify(error.toBody()), error.httpStatus as 400, { 'content-type': 'application/json' })
  if (error instanceof ApiError) return errorResponse(c, error.httpStatus, error.toBody())
  console.error('emulator-lite: unexpected error', error)
  return errorResponse(c, 500, new ApiError('INTERNAL', 'Internal error').toBody())
}

/**
 * Runs what must happen before a successful reply leaves, once; throws to turn it into an error:
 * the rules guard fails closed (a data route about to answer an unprivileged caller without having
 * asked the rules), then the access log is written. A read's entries are group-committed: then this
 * returns a promise that settles once they are durable (the reply must wait for it) or rejects
 * (the reply must be an error).
 */
export function settle(c: Ctx): Promise<void> | undefined {
  const state = c.get('settle')
  if (state === undefined || state.done) return
  state.done = true
  const { route, deps } = state
  const caller = c.get('caller')
  if (route.rules && !caller.privileged && !c.get('rulesDecided') && deps.rulesActive(route, c))
    throw new ApiError('INTERNAL', `${route.name} answered without a security rules decision`)
  const entries = c.get('access').entries
  if (deps.recorder === null || entries.length === 0) return
  const pending: Promise<void>[] = []
  for (const entry of entries) {
    const written = entry(deps.recorder)
    if (written !== undefined) pending.push(written)
  }
  if (pending.length === 0) return
  return pending.length === 1 ? pending[0] : Promise.all(pending).then(() => undefined)
}

/** The content type of Firestore's and Storage's JSON; Auth's has no charset (auth-wire reference). */
export const JSON_UTF8 = 'application/json; charset=utf-8'

/**
 * A successful JSON reply as the Google APIs send it, written straight to the socket (the Fetch
 * Response round trip costs more than the rest of a small request) after `settle`, and after the
 * group commit of its access-log entries when it has some. Compressed as Google's front ends
 * compress (compression.ts, ADR 0028) when the client accepts it.
 */
export function jsonResponse(
  c: Ctx,
  status: number,
  body: unknown,
  contentType: string = JSON_UTF8,
): Response | Promise<Response> {
  const text = JSON.stringify(body)
  const pending = settle(c)
  if (pending !== undefined) return pending.then(() => writeJson(c, status, text, contentType))
  return writeJson(c, status, text, contentType)
}

function writeJson(c: Ctx, status: number, text: string, contentType: string): Response {
  writeJsonBody(c.env.incoming, c.env.outgoing, status, { ...c.get('cors'), 'content-type': contentType }, text)
  return RESPONSE_ALREADY_SENT
}

/** An error reply in the same shape (no settle: nothing succeeded). */
function errorResponse(c: Ctx, status: number, body: unknown): Response {
  return c.body(JSON.stringify(body), status as 200, { 'content-type': 'application/json; charset=utf-8' })
}

/**
 * One app for one listener, built from route tables: CORS, the body limit and the error envelope
 * for every request; identity, privilege, the rules guard and the access log for every route.
 */
export function createCoreApp(listener: Listener, tables: readonly (readonly Route[])[], deps: CoreDeps) {
  const app = new Hono<CoreEnv>({ router: new PatternRouter() })
  const cors = listener === 'auth' ? authCors : googleCors(listener === 'firestore' ? '' : STORAGE_EXPOSE_HEADERS)
  app.use('*', async (c, next) => {
    c.set('listener', listener)
    try {
      c.set('url', new URL(c.env.incoming.url ?? '/', 'http://localhost'))
    } catch {
      throw new ApiError('INVALID_ARGUMENT', 'Malformed URL')
    }
    return cors(c, next)
  })
  for (const table of tables)
    for (const route of table) app.on(route.method, [route.path], routeMiddleware(route, listener, deps), route.handler)
  app.notFound((c) => {
    c.env.incoming.resume()
    if (listener === 'auth') return sendError(c, new AuthError('Not Found', 404, 'NOT_FOUND', 'notFound'))
    return sendError(
      c,
      new ApiError('NOT_FOUND', `No route for ${c.req.method} ${c.get('url')?.pathname ?? c.req.path}`),
    )
  })
  app.onError((error, c) => sendError(c, diskFullAware(c, error, deps.disk)))
  return app
}
