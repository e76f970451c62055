import type { AccessClassifier } from '@bosted/domain/access-classifier'
import { ACCESS_OPERATIONS, ACCESS_RESOURCES, ACCESS_ROLES, type AccessOperation } from '@bosted/domain/access-log'
import { type Ctx, jsonResponse, type Route } from '../http/core.ts'
import { ApiError, invalid } from '../http/errors.ts'
import { readJson } from '../http/server.ts'
import type { AccessLog, AccessRecord } from './access-log.ts'
import { checkWrites } from './cross-check.ts'

const MAX_APPEND = 500
const MAX_PAGE = 1000

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value)

const optionalText = (value: unknown, name: string, max = 1500): string | null => {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' || value.length > max) throw invalid(`${name} must be a string of at most ${max}`)
  return value
}

/** A time bound: RFC 3339 or ms since the epoch. */
function timeParam(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name)
  if (raw === null || raw === '') return undefined
  const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw)
  if (!Number.isFinite(ms)) throw invalid(`${name} must be a time`)
  return ms
}

/** An entry the api appends: what it did on a staff member's behalf with privileged access. */
function parseAppended(raw: unknown, project: string): AccessRecord {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('Each entry must be an object')
  const entry = raw as Record<string, unknown>
  const principal = (entry.principal ?? {}) as Record<string, unknown>
  const personId = optionalText(entry.personId, 'personId')
  const resourceName = optionalText(entry.resourceName, 'resourceName')
  const methodName = optionalText(entry.methodName, 'methodName', 200)
  if (personId === null || personId === '' || personId.includes('/')) throw invalid('personId is required')
  if (resourceName === null || methodName === null) throw invalid('resourceName and methodName are required')
  if (!isOneOf(ACCESS_OPERATIONS, entry.operation)) throw invalid('Unknown operation')
  if (!isOneOf(ACCESS_RESOURCES, entry.resource)) throw invalid('Unknown resource')
  if (!isOneOf(ACCESS_ROLES, principal.role)) throw invalid('Unknown role')
  const count = entry.count ?? 1
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw invalid('count must be an integer')
  return {
    project,
    personId,
    operation: entry.operation,
    resource: entry.resource,
    resourceName,
    methodName,
    serviceName: 'bosted-api',
    principal: {
      uid: optionalText(principal.uid, 'principal.uid', 128),
      email: optionalText(principal.email, 'principal.email', 320),
      role: principal.role,
    },
    count,
    callerIp: optionalText(entry.callerIp, 'callerIp', 64),
  }
}

/** The project segment of an access-log path. */
function projectOf(c: Ctx): string {
  const match = /^\/emulator\/v1\/projects\/([^/]+)\/accessLog/.exec(c.get('url').pathname)
  try {
    return decodeURIComponent(match?.[1] ?? '')
  } catch {
    throw invalid('Malformed path encoding')
  }
}

/**
 * The access log's own endpoints, for the api (privileged callers only; no client reaches them):
 *   GET  /emulator/v1/projects/{p}/accessLog?personId=…[&from&to&actor&operation&pageToken&pageSize]
 *   POST /emulator/v1/projects/{p}/accessLog:append   {entries: [...]}
 *   GET  /emulator/v1/accessLog:verify   (the chain, and client writes without their entry)
 * Nothing edits or deletes an entry; retention runs inside the emulator and leaves a marker.
 */
export function accessLogRoutes(log: AccessLog | null, classifier: AccessClassifier): Route[] {
  const open = (c: Ctx): AccessLog => {
    if (!c.get('caller').privileged) throw new ApiError('PERMISSION_DENIED', 'The access log is for server SDKs only.')
    if (log === null) throw new ApiError('FAILED_PRECONDITION', 'The access log is turned off (--no-access-log).')
    return log
  }
  const base = { service: 'firestore' as const, management: true, project: projectOf }
  return [
    {
      ...base,
      name: 'accessLog.verify',
      method: 'GET',
      path: '/emulator/v1/:op{accessLog:verify}',
      project: () => '',
      // The chain, and every client write of a person's data against its entry (ADR 0017).
      handler: (c) => {
        const log = open(c)
        const writes = checkWrites(log.db, classifier)
        return jsonResponse(c, 200, {
          ...log.verify(),
          writesChecked: writes?.checked ?? 0,
          writesWithoutEntry: writes?.missingCount ?? 0,
          withoutEntry: writes?.missing ?? [],
        })
      },
    },
    {
      ...base,
      name: 'accessLog.append',
      method: 'POST',
      path: '/emulator/v1/projects/:project/:op{accessLog:append}',
      handler: async (c) => {
        const log = open(c)
        const project = projectOf(c)
        const body = await readJson(c.env.incoming)
        if (!Array.isArray(body.entries) || body.entries.length === 0 || body.entries.length > MAX_APPEND)
          throw invalid(`entries must hold 1 to ${MAX_APPEND} entries`)
        const seqs = log.append(body.entries.map((entry) => parseAppended(entry, project)))
        return jsonResponse(c, 200, { seqs })
      },
    },
    {
      ...base,
      name: 'accessLog.list',
      method: 'GET',
      path: '/emulator/v1/projects/:project/accessLog',
      handler: (c) => {
        const log = open(c)
        const project = projectOf(c)
        const url = c.get('url')
        const personId = url.searchParams.get('personId')
        if (personId === null || personId === '') throw invalid('personId is required')
        const operation = url.searchParams.get('operation')
        if (operation !== null && !isOneOf(ACCESS_OPERATIONS, operation)) throw invalid('Unknown operation')
        const rawSize = url.searchParams.get('pageSize')
        const pageSize = rawSize === null ? 50 : Number(rawSize)
        if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE)
          throw invalid(`pageSize must be 1 to ${MAX_PAGE}`)
        const token = url.searchParams.get('pageToken')
        if (token !== null && !/^\d{1,15}$/.test(token)) throw invalid('Invalid pageToken')
        const { records, nextBeforeSeq } = log.list({
          project,
          personId,
          fromMs: timeParam(url, 'from'),
          toMs: timeParam(url, 'to'),
          actor: url.searchParams.get('actor') ?? undefined,
          operation: (operation as AccessOperation | null) ?? undefined,
          beforeSeq: token === null ? undefined : Number(token),
          pageSize,
        })
        return jsonResponse(c, 200, {
          entries: records,
          nextPageToken: nextBeforeSeq === null ? null : String(nextBeforeSeq),
          actors: token === null ? log.actors(project, personId) : [],
        })
      },
    },
  ]
}
