import type { IncomingMessage } from 'node:http'
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2'
import { AccessWriter, type CoreDeps, type Ctx, identify, type Listener, type Route } from '../../http/core.ts'
import { invalid } from '../../http/errors.ts'
import type { Caller } from '../../security/caller.ts'
import type { DatabaseRef } from '../paths.ts'

export const SERVICE_PREFIX = '/google.firestore.v1.Firestore/'

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

/** The project a resource name names, or '' (the core then decides without one). */
export const projectOf = (target: unknown) => () => {
  try {
    return parseResourceName(target).db.project
  } catch {
    return ''
  }
}

export function grpcRoute(name: string, project: () => string): Route {
  return {
    name: `firestore.grpc.${name}`,
    method: 'POST',
    path: `${SERVICE_PREFIX}${name}`,
    service: 'firestore',
    rules: 'firestore',
    project: () => project(),
    handler: () => {
      throw new Error('not an HTTP route')
    },
  }
}

export const authorizationOf = (headers: IncomingHttpHeaders) =>
  Array.isArray(headers.authorization) ? headers.authorization[0] : headers.authorization

/** The recorder reads the caller's address from the request, as on REST. */
export const incomingOf = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) =>
  ({ headers, socket: stream.session?.socket ?? {} }) as unknown as IncomingMessage

/** The caller of a call, by the `authorization` metadata, exactly as REST identifies a request. */
export function callerOf(
  headers: IncomingHttpHeaders,
  route: Route,
  listener: Listener,
  deps: CoreDeps,
  project: () => string,
): Caller {
  return identify(authorizationOf(headers), route, listener, deps, project)
}

/**
 * The context a REST handler runs in, for one gRPC request: its route, caller, rules decision,
 * access-log writer and the core's `settle` state (fresh per request, so each request settles once).
 */
export function callContext(
  route: Route,
  caller: Caller,
  incoming: IncomingMessage,
  listener: Listener,
  deps: CoreDeps,
): Ctx {
  const vars = new Map<string, unknown>([
    ['route', route],
    ['listener', listener],
    ['caller', caller],
    ['url', new URL('http://grpc/')],
    ['rulesDecided', false],
    ['access', new AccessWriter(caller, incoming)],
    ['settle', { route, deps, done: false }],
  ])
  return {
    get: (key: string) => vars.get(key),
    set: (key: string, value: unknown) => vars.set(key, value),
    env: { incoming },
    req: { method: 'POST' },
  } as unknown as Ctx
}
