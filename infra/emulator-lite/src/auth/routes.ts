import type { IncomingMessage } from 'node:http'
import { type Route as CoreRoute, type Ctx, jsonResponse } from '../http/core.ts'
import { MAX_BODY_BYTES } from '../http/server.ts'
import type { AuthStore } from './auth-store.ts'
import { AuthError, notFound, notImplemented, schemaError } from './errors.ts'
import { KEY_PATHS, type KeyRoute } from './key-routes.ts'
import type { OobCodes } from './oob.ts'
import { resetPassword, sendOobCode } from './oob-operations.ts'
import type { AuthContext, AuthSigning, Body } from './operations.ts'
import * as op from './operations.ts'
import { SignInThrottle } from './sign-in-throttle.ts'
import { isObject, PROJECT_NUMBER } from './tokens.ts'

/** Legacy v3 relyingparty names the official emulator rewrites to v1 (docs/wire/auth.md#url-scheme). */
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
  sendOobCode: { method: 'POST', run: (ctx, body) => sendOobCode(ctx, body) },
  resetPassword: { method: 'POST', run: (ctx, body) => resetPassword(ctx, body) },
}

/** Operations that exist in the official emulator but not here (email links, IdPs, phone, MFA). */
const UNSUPPORTED = new Set([
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
  // One device's sign-out (privileged; the operation itself refuses anyone else).
  [
    /^\/emulator\/v1\/projects\/([^/:]+)\/refreshTokens:revoke$/,
    (method, [project]) =>
      method === 'POST' ? { credential: false, body: 'json', project, run: op.revokeRefreshToken } : undefined,
  ],
  [
    /^\/emulator\/v1\/projects\/([^/:]+)\/(accounts|config|oobCodes|verificationCodes)$/,
    (method, [project, resource]) => {
      const control = (body: Route['body'], run: Route['run']): Route => ({ credential: false, body, project, run })
      if (resource === 'accounts' && method === 'DELETE') return control('none', op.clearAccounts)
      if (resource === 'config' && method === 'GET') return control('none', op.getConfig)
      if (resource === 'config' && method === 'PATCH') return control('json', op.updateConfig)
      if (resource === 'oobCodes' && method === 'GET')
        return control('none', (ctx) => ({ oobCodes: ctx.oob?.listing(ctx.project) ?? [] }))
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

/**
 * Without a privileged credential (the identity middleware decided that from the Authorization
 * header) a call needs an API key: it is then a web client (docs/wire/auth.md#callers-api-key-or-owner).
 */
function requireApiKey(req: IncomingMessage, query: URLSearchParams): void {
  if (query.get('key') || req.headers['x-goog-api-key']) return
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

/** snake_case keys are accepted as their camelCase names (docs/wire/auth.md#request-bodies); only the top level, as the SDKs send. */
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

export type AuthRoutesOptions = {
  store: AuthStore
  /** Where calls that name no project (every web SDK call) go, like the official `--project`. */
  defaultProject: string
  /** Keys and trust of signed identity (docs/decisions/0010-signed-identity.md). */
  signing: AuthSigning
  /** The published public keys (auth/key-routes.ts), answered before any credential check. */
  keyRoute?: KeyRoute
  /** Limits password guesses per account (default: auth/sign-in-throttle.ts's schedule). */
  throttle?: SignInThrottle
  /** Password-reset codes (sendOobCode, resetPassword); without them those answer OPERATION_NOT_ALLOWED. */
  oob?: OobCodes
  /**
   * A pilot (`--disable-sign-up`): nobody signs themselves up. Unprivileged `accounts:signUp` (with a
   * password or anonymous) answers ADMIN_ONLY_OPERATION, as production does with sign-up switched
   * off; the api creates accounts through the admin listener.
   */
  signUpDisabled?: boolean
}

/**
 * The path families of the Auth emulator's HTTP surface: Identity Toolkit v1/v2, securetoken, the
 * legacy v3 aliases and the /emulator control plane. `management` families (a project named in the
 * path, the control plane) are refused on the browser-facing listener without the admin secret.
 */
const FAMILIES: { name: string; methods: string[]; path: string; management?: boolean }[] = [
  { name: 'accounts', methods: ['GET', 'POST'], path: '/identitytoolkit.googleapis.com/v1/:op{accounts:\\w+}' },
  {
    name: 'projectAccounts',
    methods: ['POST'],
    path: '/identitytoolkit.googleapis.com/v1/projects/:project/accounts',
    management: true,
  },
  {
    name: 'projectAccountOps',
    methods: ['GET', 'POST'],
    path: '/identitytoolkit.googleapis.com/v1/projects/:rest{[^/:]+(?:/tenants/[^/:]*)?/accounts:\\w+}',
    management: true,
  },
  {
    name: 'createSessionCookie',
    methods: ['POST'],
    path: '/identitytoolkit.googleapis.com/v1/:rest{projects/[^/:]+:createSessionCookie}',
    management: true,
  },
  { name: 'projectConfig', methods: ['GET'], path: '/identitytoolkit.googleapis.com/v1/projects' },
  {
    name: 'tenants',
    methods: ['GET'],
    path: '/identitytoolkit.googleapis.com/v2/projects/:project/tenants',
    management: true,
  },
  {
    name: 'config',
    methods: ['GET', 'PATCH'],
    path: '/identitytoolkit.googleapis.com/v2/projects/:project/config',
    management: true,
  },
  {
    name: 'v2Public',
    methods: ['GET'],
    path: '/identitytoolkit.googleapis.com/v2/:op{recaptchaConfig|passwordPolicy}',
  },
  { name: 'token', methods: ['POST'], path: '/securetoken.googleapis.com/v1/token' },
  {
    name: 'legacy',
    methods: ['GET', 'POST'],
    path: '/www.googleapis.com/identitytoolkit/v3/relyingparty/:op',
  },
  {
    name: 'revokeRefreshToken',
    methods: ['POST'],
    path: '/emulator/v1/projects/:project/:op{refreshTokens:revoke}',
    management: true,
  },
  {
    name: 'emulator',
    methods: ['GET', 'PATCH', 'DELETE'],
    path: '/emulator/v1/projects/:project/:resource{accounts|config|oobCodes|verificationCodes}',
    management: true,
  },
]

/** One call, after the middleware: its body, its project and the operation. */
async function serve(options: AuthRoutesOptions & { throttle: SignInThrottle }, c: Ctx): Promise<Response> {
  const req = c.env.incoming
  const url = c.get('url')
  const matched = route(req.method ?? 'GET', url.pathname)
  if (!matched) throw notFound()
  const privileged = c.get('caller').privileged
  if (matched.credential && !privileged) requireApiKey(req, url.searchParams)
  if (options.signUpDisabled && !privileged && matched.run === ACCOUNT_OPS.signUp?.run) {
    c.env.incoming.resume()
    throw new AuthError('ADMIN_ONLY_OPERATION')
  }
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
    throttle: options.throttle,
    ...(options.oob ? { oob: options.oob } : {}),
  }
  const result = await matched.run(ctx, body, url.searchParams)
  // Compressed when the client accepts it (ADR 0028); Auth's content type has no charset.
  return jsonResponse(c, 200, result, 'application/json')
}

/** The Auth route table; no request, however malformed, gets a 5xx unless the server itself is broken. */
export function authRoutes(given: AuthRoutesOptions): CoreRoute[] {
  const options = { ...given, throttle: given.throttle ?? new SignInThrottle() }
  // The published public keys (auth/key-routes.ts) come first: `legacy` also matches
  // …/relyingparty/publicKeys. Anyone may read them, so they are no management route.
  const keyRoute = options.keyRoute
  const published: CoreRoute[] =
    keyRoute === undefined
      ? []
      : Object.entries(KEY_PATHS).map(
          ([name, path]): CoreRoute => ({
            name: `auth.keys.${name}`,
            method: 'GET',
            path,
            service: 'auth',
            handler: (c) => {
              c.env.incoming.resume()
              const answer = keyRoute('GET', path)
              if (answer === null) throw notFound()
              return c.body(answer.body, answer.status as 200, answer.headers)
            },
          }),
        )
  const routes: CoreRoute[] = FAMILIES.flatMap((family) =>
    family.methods.map(
      (method): CoreRoute => ({
        name: `auth.${family.name}.${method}`,
        method,
        path: family.path,
        service: 'auth',
        management: family.management,
        handler: (c) => serve(options, c),
      }),
    ),
  )
  return [...published, ...routes]
}

/** The Auth emulator's `GET /` (the listener's own; the admin listener answers Firestore's). */
export const authRootRoutes: CoreRoute[] = [
  {
    name: 'auth.root',
    method: 'GET',
    path: '/',
    service: 'auth',
    handler: (c) => {
      c.env.incoming.resume()
      return c.body(
        JSON.stringify({
          authEmulator: {
            ready: true,
            docs: 'https://firebase.google.com/docs/emulator-suite',
            apiSpec: '/emulator/openapi.json',
          },
        }),
        200,
        { 'content-type': 'application/json' },
      )
    },
  },
]
