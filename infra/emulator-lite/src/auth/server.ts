import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { MAX_BODY_BYTES } from '../http/server.ts'
import type { AuthStore } from './auth-store.ts'
import { AuthError, notFound, notImplemented, schemaError } from './errors.ts'
import type { KeyRoute } from './key-routes.ts'
import type { AuthContext, AuthSigning, Body } from './operations.ts'
import * as op from './operations.ts'
import { isObject, PROJECT_NUMBER } from './tokens.ts'

/** Legacy v3 relyingparty names the official emulator rewrites to v1 (wire reference §1.1). */
const LEGACY: Record<string, string> = {
  verifyPassword: 'signInWithPassword',
  getAccountInfo: 'lookup',
  setAccountInfo: 'update',
  signupNewUser: 'signUp',
  verifyCustomToken: 'signInWithCustomToken',
  deleteAccount: 'delete',
  createSessionCookie: 'createSessionCookie',
  uploadAccount: 'batchCreate',
  downloadAccount: 'batchGet',
}

type Credential = { privileged: boolean }

type Route = {
  /** Needs an API key or `Bearer owner`; the /emulator control plane needs neither. */
  credential: boolean
  /** Identity Toolkit bodies must be JSON; securetoken also takes a form. */
  body: 'json' | 'form-or-json' | 'none'
  project: string | undefined
  run(ctx: AuthContext, body: Body, query: URLSearchParams): unknown
}

const ACCOUNT_OPS: Record<string, { method: string; run: Route['run'] }> = {
  signUp: { method: 'POST', run: (ctx, body) => op.signUp(ctx, body) },
  signInWithPassword: { method: 'POST', run: (ctx, body) => op.signInWithPassword(ctx, body) },
  signInWithCustomToken: { method: 'POST', run: (ctx, body) => op.signInWithCustomToken(ctx, body) },
  lookup: { method: 'POST', run: (ctx, body) => op.lookup(ctx, body) },
  update: { method: 'POST', run: (ctx, body) => op.update(ctx, body) },
  delete: { method: 'POST', run: (ctx, body) => op.deleteAccount(ctx, body) },
  batchGet: { method: 'GET', run: (ctx, _body, query) => op.batchGet(ctx, query) },
  batchCreate: { method: 'POST', run: (ctx, body) => op.batchCreate(ctx, body) },
  batchDelete: { method: 'POST', run: (ctx, body) => op.batchDelete(ctx, body) },
  query: { method: 'POST', run: (ctx, body) => op.queryAccounts(ctx, body) },
}

/** Operations that exist in the official emulator but not here (email links, IdPs, phone, MFA). */
const UNSUPPORTED = new Set([
  'sendOobCode',
  'resetPassword',
  'createAuthUri',
  'signInWithEmailLink',
  'signInWithIdp',
  'sendVerificationCode',
  'signInWithPhoneNumber',
])

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw notFound()
  }
}

const unsupported = (project: string | undefined, message: string): Route => ({
  credential: true,
  body: 'none',
  project,
  run: () => {
    throw notImplemented(message)
  },
})

function accountOp(method: string, name: string, project: string | undefined): Route | undefined {
  const known = ACCOUNT_OPS[name]
  if (known && known.method === method) {
    return { credential: true, body: method === 'GET' ? 'none' : 'json', project, run: known.run }
  }
  if (UNSUPPORTED.has(name) && method === 'POST') {
    return unsupported(project, `identitytoolkit.${name} is not implemented in emulator-lite's Auth.`)
  }
  return undefined
}

/** Each pattern's captures are passed decoded; the first pattern that matches and yields a route wins. */
const ROUTES: [RegExp, (method: string, captures: string[]) => Route | undefined][] = [
  [
    /^\/identitytoolkit\.googleapis\.com\/v1\/accounts:(\w+)$/,
    (method, [name]) => accountOp(method, name as string, undefined),
  ],
  [
    /^\/identitytoolkit\.googleapis\.com\/v1\/projects\/([^/:]+)\/accounts$/,
    (method, [project]) => (method === 'POST' ? accountOp(method, 'signUp', project) : undefined),
  ],
  // The CLI's import names the default tenant with an empty segment: `tenants//accounts:batchCreate`.
  [
    /^\/identitytoolkit\.googleapis\.com\/v1\/projects\/([^/:]+)(?:\/tenants\/([^/:]*))?\/accounts:(\w+)$/,
    (method, [project, tenant, name]) =>
      tenant
        ? unsupported(project, "Tenants are not implemented in emulator-lite's Auth.")
        : accountOp(method, name as string, project),
  ],
  [
    /^\/identitytoolkit\.googleapis\.com\/v1\/projects\/([^/:]+):createSessionCookie$/,
    (method, [project]) =>
      method === 'POST' ? { credential: true, body: 'json', project, run: op.createSessionCookie } : undefined,
  ],
  [
    /^\/identitytoolkit\.googleapis\.com\/v1\/projects$/,
    (method) =>
      method === 'GET'
        ? {
            credential: true,
            body: 'none',
            project: undefined,
            run: () => ({ projectId: PROJECT_NUMBER, authorizedDomains: ['localhost'] }),
          }
        : undefined,
  ],
  [
    /^\/identitytoolkit\.googleapis\.com\/v2\/projects\/([^/:]+)\/tenants$/,
    (method, [project]) =>
      method === 'GET' ? { credential: true, body: 'none', project, run: () => ({ tenants: [] }) } : undefined,
  ],
  [
    /^\/identitytoolkit\.googleapis\.com\/v2\/projects\/([^/:]+)\/config$/,
    (method, [project]) => {
      if (method === 'GET') {
        return {
          credential: true,
          body: 'none',
          project,
          run: (ctx) => ({ ...op.getConfig(ctx), blockingFunctions: {} }),
        }
      }
      if (method !== 'PATCH') return undefined
      return {
        credential: true,
        body: 'json',
        project,
        run: (ctx, body) => ({ ...op.updateConfig(ctx, body), blockingFunctions: {} }),
      }
    },
  ],
  [
    /^\/identitytoolkit\.googleapis\.com\/v2\/(recaptchaConfig|passwordPolicy)$/,
    (method, [name]) =>
      method === 'GET'
        ? unsupported(
            undefined,
            `identitytoolkit.get${name === 'recaptchaConfig' ? 'RecaptchaConfig' : 'PasswordPolicy'} is not implemented in the Auth Emulator.`,
          )
        : undefined,
  ],
  [
    /^\/securetoken\.googleapis\.com\/v1\/token$/,
    (method) =>
      method === 'POST'
        ? { credential: true, body: 'form-or-json', project: undefined, run: op.grantToken }
        : undefined,
  ],
  [
    /^\/www\.googleapis\.com\/identitytoolkit\/v3\/relyingparty\/(\w+)$/,
    (method, [legacy]) => {
      if (legacy === 'signOutUser')
        return unsupported(undefined, 'signOutUser is not implemented in the Auth Emulator.')
      const name = LEGACY[legacy as string]
      if (name === 'createSessionCookie') {
        return method === 'POST'
          ? { credential: true, body: 'json', project: undefined, run: op.createSessionCookie }
          : undefined
      }
      return name ? accountOp(method, name, undefined) : undefined
    },
  ],
  [
    /^\/emulator\/v1\/projects\/([^/:]+)\/(accounts|config|oobCodes|verificationCodes)$/,
    (method, [project, resource]) => {
      const control = (body: Route['body'], run: Route['run']): Route => ({ credential: false, body, project, run })
      if (resource === 'accounts' && method === 'DELETE') return control('none', op.clearAccounts)
      if (resource === 'config' && method === 'GET') return control('none', op.getConfig)
      if (resource === 'config' && method === 'PATCH') return control('json', op.updateConfig)
      if (resource === 'oobCodes' && method === 'GET') return control('none', () => ({ oobCodes: [] }))
      if (resource === 'verificationCodes' && method === 'GET')
        return control('none', () => ({ verificationCodes: [] }))
      return undefined
    },
  ],
]

function route(method: string, path: string): Route | undefined {
  for (const [pattern, build] of ROUTES) {
    const match = path.match(pattern)
    if (match)
      return build(
        method,
        match.slice(1).map((segment) => (segment === undefined ? '' : decodeSegment(segment))),
      )
  }
  return undefined
}

/** `Bearer owner` (firebase-admin, the CLI) is privileged; an API key alone is a web client (§1.2). */
function credentialOf(req: IncomingMessage, query: URLSearchParams): Credential {
  const authorization = req.headers.authorization
  if (authorization !== undefined) {
    const token = authorization.replace(/^bearer\s+/i, '')
    if (token !== authorization && (token.toLowerCase() === 'owner' || token.startsWith('ya29.')))
      return { privileged: true }
    throw new AuthError(
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
      401,
      'UNAUTHENTICATED',
    )
  }
  if (query.get('key') || req.headers['x-goog-api-key']) return { privileged: false }
  throw new AuthError('The request is missing a valid API key.', 403, 'PERMISSION_DENIED', 'forbidden')
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw schemaError(`Request body exceeds ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const camel = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())

/** snake_case keys are accepted as their camelCase names (§1.3); only the top level, as the SDKs send. */
function camelKeys(body: Record<string, unknown>): Body {
  const result: Body = {}
  for (const [key, value] of Object.entries(body)) {
    const name = camel(key)
    if (!(name in result) || key === name) result[name] = value
  }
  return result
}

async function parseBody(req: IncomingMessage, kind: Route['body']): Promise<Body> {
  if (kind === 'none') {
    req.resume()
    return {}
  }
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  const text = await readBody(req)
  if (kind === 'form-or-json' && contentType === 'application/x-www-form-urlencoded') {
    return camelKeys(Object.fromEntries(new URLSearchParams(text)))
  }
  if (contentType === '') {
    // The official emulator ignores such a body and then fails with a 500; a 400 is kinder.
    if (text.trim() === '') return {}
    throw new AuthError('Invalid content-type: (none)', 400, undefined, 'unknown')
  }
  if (contentType !== 'application/json')
    throw new AuthError(`Invalid content-type: ${contentType}`, 400, undefined, 'unknown')
  if (text.trim() === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new AuthError(
      `Invalid JSON payload received. ${(error as Error).message}`,
      400,
      'INVALID_ARGUMENT',
      'parseError',
    )
  }
  if (!isObject(parsed)) throw schemaError('Invalid JSON payload received. / must be object')
  return camelKeys(parsed)
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

/** CORS exactly as the official emulator's `cors({origin:true})` plus its Private Network Access hook (§9). */
function applyCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin
  if (origin) {
    res.setHeader('access-control-allow-origin', origin)
    res.setHeader('vary', 'Origin')
  }
  if (req.method !== 'OPTIONS') return false
  res.setHeader('access-control-allow-methods', 'GET,HEAD,PUT,PATCH,POST,DELETE')
  const requested = req.headers['access-control-request-headers']
  if (origin && requested) {
    res.setHeader('access-control-allow-headers', requested)
    res.setHeader('vary', 'Origin, Access-Control-Request-Headers')
  }
  if (req.headers['access-control-request-private-network'] === 'true') {
    res.setHeader('access-control-allow-private-network', 'true')
  }
  res.writeHead(204, { 'content-length': '0' }).end()
  return true
}

export type AuthServerOptions = {
  store: AuthStore
  /** Where calls that name no project (every web SDK call) go, like the official `--project`. */
  defaultProject: string
  /** Keys and trust of signed identity (docs/decisions/0010-signed-identity.md). */
  signing: AuthSigning
  /** The published public keys (auth/key-routes.ts), answered before any credential check. */
  keyRoute?: KeyRoute
}

/**
 * The Auth emulator's HTTP surface: Identity Toolkit v1/v2, securetoken, the legacy v3 aliases and
 * the /emulator control plane, answering in the official emulator's error envelope. No request,
 * however malformed, gets a 5xx unless the server itself is broken.
 */
export function createAuthServer(options: AuthServerOptions): Server {
  return createServer(async (req, res) => {
    if (applyCors(req, res)) return
    try {
      const url = new URL(req.url ?? '/', 'http://localhost')
      if (url.pathname === '/' && req.method === 'GET') {
        req.resume()
        sendJson(res, 200, {
          authEmulator: {
            ready: true,
            docs: 'https://firebase.google.com/docs/emulator-suite',
            apiSpec: '/emulator/openapi.json',
          },
        })
        return
      }
      const published = options.keyRoute?.(req.method ?? 'GET', url.pathname)
      if (published) {
        req.resume()
        res.writeHead(published.status, { ...published.headers, 'content-length': Buffer.byteLength(published.body) })
        res.end(req.method === 'HEAD' ? undefined : published.body)
        return
      }
      const matched = route(req.method ?? 'GET', url.pathname)
      if (!matched) throw notFound()
      let privileged = false
      if (matched.credential) privileged = credentialOf(req, url.searchParams).privileged
      const body = await parseBody(req, matched.body)
      let project = matched.project
      if (matched.credential) {
        const bodyProject = typeof body.targetProjectId === 'string' ? body.targetProjectId : undefined
        if ((project ?? bodyProject) !== undefined && !privileged) {
          throw new AuthError('INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.')
        }
        project ??= bodyProject
      }
      const ctx: AuthContext = {
        store: options.store,
        project: project ?? options.defaultProject,
        privileged,
        signing: options.signing,
      }
      sendJson(res, 200, await matched.run(ctx, body, url.searchParams))
    } catch (error) {
      req.resume()
      if (res.headersSent) {
        res.destroy()
        return
      }
      if (error instanceof AuthError) {
        sendJson(res, error.httpStatus, error.toBody())
        return
      }
      console.error('emulator-lite auth: unexpected error', error)
      sendJson(res, 500, new AuthError('Internal error', 500, 'INTERNAL').toBody())
    }
  })
}
