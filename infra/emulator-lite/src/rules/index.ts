import type { Fields } from '../firestore/values.ts'
import { type CompiledFunction, Compiler, type Ctx, type Host, type Scope, type Thunk } from './evaluator.ts'
import { pinnedName, queryMap, symbolicData, waysOf } from './list.ts'
import { type MatchBlock, type Method, parseExpression, parseFile, RulesError, type Segment } from './parser.ts'
import {
  fail,
  failLimit,
  fromFields,
  fromJson,
  type RMap,
  RPath,
  RTimestamp,
  RulesEvalError,
  RulesLimitError,
  type RValue,
  referenceToPath,
} from './values.ts'

export { RulesError }

type CompiledAllow = { methods: Set<Method>; line: number; condition: Thunk | null }
type FlatMatch = { segments: Segment[]; allows: CompiledAllow[] }

/** A parsed and compiled rules file, ready to evaluate requests. */
export type Ruleset = {
  readonly service: 'cloud.firestore' | 'firebase.storage'
  readonly version: '1' | '2'
  readonly fileName: string
  readonly matches: readonly FlatMatch[]
}

/** The caller's decoded ID token: `token` holds every claim, custom claims at the top level. */
export type RulesAuth = { uid: string; token: Record<string, unknown> } | null
/** `message` is the denial detail for the 403 body (or why a request was allowed). */
export type Decision = { allowed: boolean; message: string }
/** Document reads for `get()`/`exists()` (state before the request) and `getAfter()`/`existsAfter()`. */
export type DocLookup = { get(path: string): Fields | null; getAfter(path: string): Fields | null }
/**
 * Shared by the writes of one batch or transaction: documents already looked up are free, as are
 * `freePaths` (the documents the batch writes); at most 20 distinct lookups in all.
 */
export type LookupBudget = { seen: Set<string>; freePaths: Set<string> }

/** Object metadata as storage rules see it (docs/wire/rules.md#storage-rules). */
export type StorageResource = {
  name: string
  bucket: string
  size: number
  contentType?: string | null
  md5Hash?: string
  crc32c?: string
  etag?: string
  generation?: string
  metageneration?: string
  timeCreated?: Date | string
  updated?: Date | string
  contentDisposition?: string
  contentEncoding?: string
  contentLanguage?: string
  cacheControl?: string
  metadata?: Record<string, string> | null
}

export const LOOKUPS_PER_REQUEST = 10
export const LOOKUPS_PER_QUERY = 20
export const LOOKUPS_PER_BATCH = 20

/** Parses and checks a rules file; throws RulesError naming file:line:column for any syntax error or anything the engine does not support (never a silent allow). */
export function parseRules(source: string, fileName: string): Ruleset {
  if (source.length > 256 * 1024) throw new RulesError(fileName, 1, 1, 'rules file exceeds 256 KB')
  const { file, errorAt } = parseFile(source, fileName)
  const compiler = new Compiler({ service: file.service, errorAt })
  const functions: CompiledFunction[] = []
  const fileScope = compiler.declare(null, file.globals, [])
  const root = compiler.declare(fileScope, file.functions, [])
  functions.push(...fileScope.functions.values(), ...root.functions.values())
  const matches: FlatMatch[] = []
  const pending: { block: MatchBlock; scope: Scope; segments: Segment[] }[] = []

  const walk = (block: MatchBlock, parent: Scope, outer: Segment[], outerNames: Set<string>) => {
    const names = new Set(outerNames)
    const own: string[] = []
    for (const segment of block.segments) {
      if (segment.kind === 'literal') continue
      if (names.has(segment.name))
        errorAt(block, `wildcard {${segment.name}} is already bound by an enclosing match (shadowing is not supported)`)
      names.add(segment.name)
      own.push(segment.name)
    }
    const segments = [...outer, ...block.segments]
    if (segments.filter((s) => s.kind === 'rest').length > 1 && file.version === '1')
      errorAt(block, 'only one recursive wildcard per path in rules_version 1')
    const scope = compiler.declare(parent, block.functions, own)
    functions.push(...scope.functions.values())
    pending.push({ block, scope, segments })
    for (const inner of block.matches) walk(inner, scope, segments, names)
  }
  for (const block of file.matches) walk(block, root, [], new Set())

  for (const fn of functions) compiler.compileFunction(fn)
  compiler.checkRecursion(functions)
  for (const { block, scope, segments } of pending) {
    const allows = block.allows.map((allow) => ({
      methods: new Set(allow.methods),
      line: allow.line,
      condition: allow.condition ? compiler.compile(allow.condition, scope, null) : null,
    }))
    matches.push({ segments, allows })
  }
  return { service: file.service, version: file.version, fileName, matches }
}

// ---- matching

/** A document id a list query leaves open, and (collection group) the unknown ancestors. */
const UNKNOWN = Symbol('unknown segment')
const UNKNOWN_ANCESTORS = Symbol('unknown ancestors')
type PathSegment = string | typeof UNKNOWN | typeof UNKNOWN_ANCESTORS

function matchPath(
  pattern: Segment[],
  path: PathSegment[],
  version: '1' | '2',
): Record<string, RValue | undefined> | null {
  const bindings: Record<string, RValue | undefined> = {}
  const step = (pi: number, si: number): boolean => {
    if (pi === pattern.length) return si === path.length
    const segment = pattern[pi] as Segment
    const actual = path[si]
    if (segment.kind === 'literal') return actual === segment.text && step(pi + 1, si + 1)
    if (segment.kind === 'var') {
      if (actual === undefined || actual === UNKNOWN_ANCESTORS) return false
      bindings[segment.name] = typeof actual === 'string' ? actual : undefined
      return step(pi + 1, si + 1)
    }
    for (let end = version === '2' ? si : si + 1; end <= path.length; end++) {
      const taken = path.slice(si, end)
      bindings[segment.name] = taken.every((s) => typeof s === 'string') ? new RPath(taken as string[]) : undefined
      if (step(pi + 1, end)) return true
    }
    return false
  }
  return step(0, 0) ? bindings : null
}

function covers(allow: CompiledAllow, method: Method): boolean {
  if (allow.methods.has(method)) return true
  if (method === 'get' || method === 'list') return allow.methods.has('read')
  return allow.methods.has('write')
}

type Evaluation = { request: RValue; resource: RValue; host: Host }

function decide(ruleset: Ruleset, path: PathSegment[], method: Method, evaluation: Evaluation): Decision {
  const failures: string[] = []
  const ctx: Ctx = { ...evaluation, wild: {}, steps: 0, depth: 0 }
  for (const match of ruleset.matches) {
    if (!match.allows.some((allow) => covers(allow, method))) continue
    const bindings = matchPath(match.segments, path, ruleset.version)
    if (!bindings) continue
    ctx.wild = bindings
    for (const allow of match.allows) {
      if (!covers(allow, method)) continue
      if (!allow.condition) return { allowed: true, message: `allowed for '${method}' @ L${allow.line}` }
      try {
        ctx.depth = 0
        if (allow.condition(ctx, []) === true)
          return { allowed: true, message: `allowed for '${method}' @ L${allow.line}` }
        failures.push(`false for '${method}' @ L${allow.line}`)
      } catch (error) {
        const what = error instanceof RulesEvalError ? error.message : `Internal rules error: ${String(error)}`
        failures.push(`${what} for '${method}' @ L${allow.line}`)
        // Exceeding a limit denies the request whatever the remaining statements say.
        if (error instanceof RulesLimitError) return { allowed: false, message: failures.join('; ') }
      }
    }
  }
  return { allowed: false, message: failures.length === 0 ? 'No matching allow statements' : failures.join('; ') }
}

// ---- Firestore

/** A request's time: a `Date`, or a commit time in nanoseconds (what a write's server timestamps hold). */
const toTimestamp = (time: Date | bigint) =>
  new RTimestamp(typeof time === 'bigint' ? time : BigInt(time.getTime()) * 1_000_000n)

function authValue(auth: RulesAuth): RValue {
  if (auth === null) return null
  const map: RMap = new Map()
  map.set('uid', auth.uid)
  map.set('token', fromJson(auth.token))
  return map
}

const documentsRoot = (database: string) => ['databases', database, 'documents']

function documentResource(database: string, path: string, fields: Fields | null): RValue {
  if (fields === null) return null
  const map: RMap = new Map()
  const segments = path.split('/')
  map.set('data', fromFields(fields))
  map.set('id', segments[segments.length - 1] as string)
  map.set('__name__', new RPath([...documentsRoot(database), ...segments]))
  return map
}

/** `get()` & co. for one request: a cache per path, and the budget of distinct documents. */
function firestoreHost(
  database: string,
  lookup: DocLookup | undefined,
  limit: number,
  ownPath: string | null,
  budget: LookupBudget | undefined,
  service: string,
): Host {
  const cache = new Map<string, RValue>()
  const counted = new Set<string>()
  return {
    lookup(path, after) {
      const s = path.segments
      if (s.length < 5 || s[0] !== 'databases' || s[2] !== 'documents' || (s.length - 3) % 2 !== 0)
        fail(`Invalid document path ${path.toString()}: expected /databases/{db}/documents/{collection}/{id}.`)
      if (s[1] !== database) fail(`Lookups in another database (${s[1]}) are not supported.`)
      if (!lookup) fail(`Service call error. Function: [${service}.get].`)
      const relative = s.slice(3).join('/')
      const key = `${after ? 'after' : 'before'}:${relative}`
      const cached = cache.get(key)
      if (cached !== undefined) return cached
      const free =
        relative === ownPath || budget?.freePaths.has(relative) === true || budget?.seen.has(relative) === true
      if (!free && !counted.has(relative)) {
        if (counted.size >= limit) failLimit(`Exceeded the maximum number of document lookups (${limit}).`)
        if (budget && budget.seen.size >= LOOKUPS_PER_BATCH)
          failLimit(`Exceeded the maximum number of document lookups in a batch (${LOOKUPS_PER_BATCH}).`)
        counted.add(relative)
        budget?.seen.add(relative)
      }
      const fields = after ? (lookup as DocLookup).getAfter(relative) : (lookup as DocLookup).get(relative)
      const value = documentResource(database, relative, fields)
      cache.set(key, value)
      return value
    },
  }
}

/** Decides a single-document Firestore request (get, or one write of a commit). */
export function checkFirestore(
  ruleset: Ruleset,
  access: {
    database: string
    path: string
    method: 'get' | 'create' | 'update' | 'delete'
    auth: RulesAuth
    /** A write's `request.time` is its commit's time, the value its server timestamps get. */
    time: Date | bigint
    resource: Fields | null
    requestResource: Fields | null
    lookup: DocLookup
    /** Shared across the writes of one batch or transaction. */
    budget?: LookupBudget
  },
): Decision {
  if (ruleset.service !== 'cloud.firestore') return { allowed: false, message: 'Not a Firestore ruleset' }
  try {
    const fullPath = [...documentsRoot(access.database), ...access.path.split('/')]
    const request: RMap = new Map()
    request.set('auth', authValue(access.auth))
    request.set('method', access.method)
    request.set('path', new RPath(fullPath))
    request.set('time', toTimestamp(access.time))
    request.set(
      'resource',
      access.method === 'create' || access.method === 'update'
        ? documentResource(access.database, access.path, access.requestResource)
        : null,
    )
    const host = firestoreHost(
      access.database,
      access.lookup,
      LOOKUPS_PER_REQUEST,
      access.path,
      access.budget,
      'firestore',
    )
    return decide(ruleset, fullPath, access.method, {
      request,
      resource: documentResource(access.database, access.path, access.resource),
      host,
    })
  } catch (error) {
    return {
      allowed: false,
      message: error instanceof RulesEvalError ? error.message : `Internal rules error: ${String(error)}`,
    }
  }
}

/** A list query (runQuery or runAggregationQuery), decided against the QUERY, not the stored data (docs/wire/rules.md#list-queries). */
export function checkFirestoreList(
  ruleset: Ruleset,
  access: {
    database: string
    parent: string
    collectionId: string
    allDescendants: boolean
    structuredQuery: unknown
    auth: RulesAuth
    time: Date
    lookup: DocLookup
  },
): Decision {
  if (ruleset.service !== 'cloud.firestore') return { allowed: false, message: 'Not a Firestore ruleset' }
  try {
    const query = (
      typeof access.structuredQuery === 'object' && access.structuredQuery !== null ? access.structuredQuery : {}
    ) as Record<string, unknown>
    const ways = waysOf(query.where)
    const parent = access.parent === '' ? [] : access.parent.split('/')
    const collectionPath: PathSegment[] = [
      ...documentsRoot(access.database),
      ...parent,
      ...((access.allDescendants ? [UNKNOWN_ANCESTORS] : []) as PathSegment[]),
      access.collectionId,
      UNKNOWN,
    ]
    const auth = authValue(access.auth)
    const time = toTimestamp(access.time)
    const requestQuery = queryMap(query)
    // One budget for the whole query: a document looked up by several ways is counted once.
    const host = firestoreHost(access.database, access.lookup, LOOKUPS_PER_QUERY, null, undefined, 'firestore')
    for (const way of ways) {
      const request: RMap = new Map()
      request.set('auth', auth)
      request.set('method', 'list')
      request.set('time', time)
      request.set('query', requestQuery)
      let decision: Decision
      const pinned = pinnedName(way)
      if (pinned?.startsWith('projects/')) {
        // `__name__ == doc` decides the way as a read of that document as stored (docs/wire/rules.md#document-id-constraints).
        const full = referenceToPath(pinned).segments
        const relative = full.slice(3).join('/')
        request.set('path', new RPath(full))
        decision = decide(ruleset, full, 'list', {
          request,
          resource: documentResource(access.database, relative, access.lookup.get(relative)),
          host,
        })
      } else {
        const resource: RMap = new Map()
        resource.set('data', symbolicData(way))
        decision = decide(ruleset, collectionPath, 'list', { request, resource, host })
      }
      if (!decision.allowed)
        return ways.length > 1
          ? { allowed: false, message: `${decision.message} (one of ${ways.length} ways the query can match)` }
          : decision
    }
    return { allowed: true, message: `allowed for 'list' (${ways.length} way${ways.length === 1 ? '' : 's'})` }
  } catch (error) {
    return {
      allowed: false,
      message: error instanceof RulesEvalError ? error.message : `Internal rules error: ${String(error)}`,
    }
  }
}

// ---- Storage

function timestampOf(value: Date | string | undefined): RValue {
  if (value === undefined) return null
  const date = typeof value === 'string' ? new Date(value) : value
  return Number.isNaN(date.getTime()) ? null : toTimestamp(date)
}

const STORAGE_STRINGS = [
  'md5Hash',
  'crc32c',
  'etag',
  'generation',
  'metageneration',
  'contentDisposition',
  'contentEncoding',
  'contentLanguage',
  'cacheControl',
] as const

function storageValue(resource: StorageResource | null): RValue {
  if (resource === null) return null
  const map: RMap = new Map()
  map.set('name', resource.name)
  map.set('bucket', resource.bucket)
  map.set('size', BigInt(Math.trunc(resource.size)))
  map.set('contentType', resource.contentType ?? null)
  for (const key of STORAGE_STRINGS) map.set(key, resource[key] ?? null)
  map.set('timeCreated', timestampOf(resource.timeCreated))
  map.set('updated', timestampOf(resource.updated))
  map.set('metadata', fromJson(resource.metadata ?? {}))
  return map
}

/** Decides a Cloud Storage request; `name` is the object name (for list: the prefix, e.g. `avatars/p1/`). */
export function checkStorage(
  ruleset: Ruleset,
  access: {
    bucket: string
    name: string
    method: 'get' | 'list' | 'create' | 'update' | 'delete'
    auth: RulesAuth
    time: Date
    resource: StorageResource | null
    requestResource: StorageResource | null
    firestore?: DocLookup
  },
): Decision {
  if (ruleset.service !== 'firebase.storage') return { allowed: false, message: 'Not a Storage ruleset' }
  // As the official Storage emulator: listing needs rules_version 2, and the path is the prefix
  // without its trailing slashes.
  if (access.method === 'list' && ruleset.version !== '2')
    return { allowed: false, message: "List operations are only allowed for rules_version='2'" }
  try {
    const objectSegments = access.name.split('/').filter((s) => s !== '')
    const fullPath = ['b', access.bucket, 'o', ...objectSegments]
    const request: RMap = new Map()
    request.set('auth', authValue(access.auth))
    request.set('method', access.method)
    request.set('path', new RPath(fullPath))
    request.set('time', toTimestamp(access.time))
    request.set('resource', storageValue(access.requestResource))
    const host = firestoreHost('(default)', access.firestore, LOOKUPS_PER_REQUEST, null, undefined, 'firestore')
    return decide(ruleset, fullPath, access.method, { request, resource: storageValue(access.resource), host })
  } catch (error) {
    return {
      allowed: false,
      message: error instanceof RulesEvalError ? error.message : `Internal rules error: ${String(error)}`,
    }
  }
}

/** A fresh budget for the writes of one commit; `freePaths` are the documents it writes. */
export function createLookupBudget(freePaths: Iterable<string> = []): LookupBudget {
  return { seen: new Set(), freePaths: new Set(freePaths) }
}

/**
 * Evaluates one expression with Firestore rules semantics, for tests and tools: `request`,
 * `resource` and `get()` come from `env`. Returns the value, or the evaluation error's message.
 */
export function evaluateExpression(
  expression: string,
  env: { request?: RValue; resource?: RValue; lookup?: DocLookup; variables?: Record<string, RValue> } = {},
): { value: RValue } | { error: string } {
  const { expr, errorAt } = parseExpression(expression)
  const compiler = new Compiler({ service: 'cloud.firestore', errorAt })
  const wild = env.variables ?? {}
  const scope = compiler.declare(null, [], Object.keys(wild))
  const thunk = compiler.compile(expr, scope, null)
  const ctx: Ctx = {
    request: env.request ?? null,
    resource: env.resource ?? null,
    wild,
    steps: 0,
    depth: 0,
    host: firestoreHost('(default)', env.lookup, LOOKUPS_PER_REQUEST, null, undefined, 'firestore'),
  }
  try {
    return { value: thunk(ctx, []) }
  } catch (error) {
    if (error instanceof RulesEvalError) return { error: error.message }
    throw error
  }
}
