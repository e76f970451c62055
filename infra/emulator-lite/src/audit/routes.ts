import type { IncomingMessage, ServerResponse } from 'node:http'
import { ACCESS_OPERATIONS, ACCESS_RESOURCES, ACCESS_ROLES, type AccessOperation } from '@bosted/domain/access-log'
import { ApiError, invalid } from '../http/errors.ts'
import { readJson, sendJson } from '../http/server.ts'
import { callerOf, identifyNobody } from '../security/caller.ts'
import type { AccessLog, AccessRecord } from './access-log.ts'

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

/**
 * The access log's own endpoints, for the api (owner credential only; no client reaches them):
 *   GET  /emulator/v1/projects/{p}/accessLog?personId=…[&from&to&actor&operation&pageToken&pageSize]
 *   POST /emulator/v1/projects/{p}/accessLog:append   {entries: [...]}
 *   GET  /emulator/v1/accessLog:verify
 * Nothing edits or deletes an entry; retention runs inside the emulator and leaves a marker.
 */
export function createAccessLogHandler(log: AccessLog | null) {
  return async function handle(req: IncomingMessage, url: URL, res: ServerResponse): Promise<boolean> {
    const verify = url.pathname === '/emulator/v1/accessLog:verify'
    const match = /^\/emulator\/v1\/projects\/([^/]+)\/accessLog(:append)?$/.exec(url.pathname)
    if (!verify && !match) return false
    if (!callerOf(req, identifyNobody).privileged)
      throw new ApiError('PERMISSION_DENIED', 'The access log is for server SDKs only.')
    if (log === null) throw new ApiError('FAILED_PRECONDITION', 'The access log is turned off (--no-access-log).')
    if (verify) {
      if (req.method !== 'GET') return false
      sendJson(res, 200, log.verify())
      return true
    }
    const project = decodeURIComponent(match?.[1] as string)
    if (match?.[2] === ':append') {
      if (req.method !== 'POST') return false
      const body = await readJson(req)
      if (!Array.isArray(body.entries) || body.entries.length === 0 || body.entries.length > MAX_APPEND)
        throw invalid(`entries must hold 1 to ${MAX_APPEND} entries`)
      const seqs = log.append(body.entries.map((entry) => parseAppended(entry, project)))
      sendJson(res, 200, { seqs })
      return true
    }
    if (req.method !== 'GET') return false
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
    sendJson(res, 200, {
      entries: records,
      nextPageToken: nextBeforeSeq === null ? null : String(nextBeforeSeq),
      actors: token === null ? log.actors(project, personId) : [],
    })
    return true
  }
}
