import {
  type AccessFacts,
  type AccessLogVerification,
  type AccessOperation,
  type AccessRole,
  type AuditLogRecord,
  auditPayload,
} from '@bosted/domain/access-log'
import { personPath } from '@bosted/domain/paths'
import { httpError } from './http-error.ts'

/** One page of a person's log as the data layer has it (newest first). */
export type AccessLogRecords = {
  records: AuditLogRecord[]
  nextPageToken: string | null
  /** Everyone in this person's log, with their latest email and role (first page only). */
  actors: { uid: string; email: string | null; role: AccessRole }[]
}

export type AccessLogFilter = {
  fromMs?: number | undefined
  toMs?: number | undefined
  actor?: string | undefined
  operation?: AccessOperation | undefined
  pageToken?: string | undefined
  pageSize: number
}

/** What the api itself did with privileged access, on a staff member's behalf (it names them). */
export type ApiAccess = Omit<AccessFacts, 'serviceName' | 'principal'> & {
  principal: { uid: string; email: string | null; role: AccessRole }
}

/**
 * Where the access log lives. Here: emulator-lite's hash-chained log (owner-only endpoints). In
 * production: Firestore's Data Access audit logs in Cloud Logging (cloudLoggingAccessLog below).
 */
export type AccessLogStore = {
  readonly kind: 'emulator' | 'cloud-logging'
  list(project: string, personId: string, filter: AccessLogFilter): Promise<AccessLogRecords>
  /** Durable when it resolves: callers append before they send the data. */
  append(project: string, entries: readonly ApiAccess[]): Promise<void>
  /** Null where the store keeps its own integrity (Cloud Logging's locked buckets). */
  verify(): Promise<AccessLogVerification | null>
}

export class AccessLogUnavailableError extends Error {
  override name = 'AccessLogUnavailableError'
}

async function ownerCall<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response
  try {
    response = await fetch(url, {
      ...init,
      headers: { authorization: 'Bearer owner', 'content-type': 'application/json', ...init.headers },
      signal: AbortSignal.timeout(15_000),
    })
  } catch (error) {
    throw new AccessLogUnavailableError(`the access log could not be reached: ${(error as Error).name}`)
  }
  // A filter the log refuses (a page token that is not one) is the caller's mistake, not an outage.
  if (response.status === 400) throw httpError('invalid_request')
  if (!response.ok) throw new AccessLogUnavailableError(`the access log answered ${response.status}`)
  return (await response.json()) as T
}

/** emulator-lite's log, at the Firestore emulator's host (FIRESTORE_EMULATOR_HOST). */
export function emulatorAccessLog(host: string): AccessLogStore {
  const base = `http://${host}/emulator/v1`
  return {
    kind: 'emulator',
    async list(project, personId, filter) {
      const params = new URLSearchParams({ personId, pageSize: String(filter.pageSize) })
      if (filter.fromMs !== undefined) params.set('from', String(filter.fromMs))
      if (filter.toMs !== undefined) params.set('to', String(filter.toMs))
      if (filter.actor !== undefined) params.set('actor', filter.actor)
      if (filter.operation !== undefined) params.set('operation', filter.operation)
      if (filter.pageToken !== undefined) params.set('pageToken', filter.pageToken)
      const body = await ownerCall<{
        entries: AuditLogRecord[]
        nextPageToken: string | null
        actors: AccessLogRecords['actors']
      }>(`${base}/projects/${encodeURIComponent(project)}/accessLog?${params}`)
      return { records: body.entries, nextPageToken: body.nextPageToken, actors: body.actors }
    },
    async append(project, entries) {
      if (entries.length === 0) return
      await ownerCall(`${base}/projects/${encodeURIComponent(project)}/accessLog:append`, {
        method: 'POST',
        body: JSON.stringify({ entries }),
      })
    },
    verify: () => ownerCall<AccessLogVerification>(`${base}/accessLog:verify`),
  }
}

/**
 * Production: Firestore's Data Access audit logs (turned on for the project: IAM → Audit Logs →
 * Cloud Firestore API → Data Read and Data Write), read through Cloud Logging's REST API
 * (`entries.list`), and the api's own entries written with `entries.write` to a log of the same
 * shape. Credentials are the service account's (application default credentials), which needs
 * roles/logging.privateLogViewer and roles/logging.logWriter. Firestore's entries name the
 * document or query, not the person: the filter matches resource names under persons/{id}.
 *
 * This path cannot run here (no Google Cloud project is reachable); it is written against the
 * documented API (https://cloud.google.com/logging/docs/reference/v2/rest/v2/entries/list) and
 * chosen by index.ts when no emulator is configured.
 */
export function cloudLoggingAccessLog(options: {
  projectId: string
  /** An authorised fetch (google-auth-library's client.fetch with the logging scopes). */
  authorizedFetch: (url: string, init: RequestInit) => Promise<Response>
}): AccessLogStore {
  const endpoint = 'https://logging.googleapis.com/v2'
  const apiLog = `projects/${options.projectId}/logs/bosted-api%2Fdata_access`
  const call = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await options.authorizedFetch(`${endpoint}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new AccessLogUnavailableError(`Cloud Logging answered ${response.status}`)
    return (await response.json()) as T
  }
  return {
    kind: 'cloud-logging',
    async list(project, personId, filter) {
      const clauses = [
        `(logName="projects/${project}/logs/cloudaudit.googleapis.com%2Fdata_access" OR logName="${apiLog}")`,
        `(protoPayload.resourceName:"/documents/${personPath(personId)}" OR labels.personId="${personId}")`,
      ]
      if (filter.fromMs !== undefined) clauses.push(`timestamp>="${new Date(filter.fromMs).toISOString()}"`)
      if (filter.toMs !== undefined) clauses.push(`timestamp<"${new Date(filter.toMs).toISOString()}"`)
      if (filter.actor !== undefined) clauses.push(`protoPayload.authenticationInfo.principalSubject="${filter.actor}"`)
      const body = await call<{ entries?: AuditLogRecord[]; nextPageToken?: string }>('entries:list', {
        resourceNames: [`projects/${project}`],
        filter: clauses.join(' AND '),
        orderBy: 'timestamp desc',
        pageSize: filter.pageSize,
        pageToken: filter.pageToken,
      })
      const records = (body.entries ?? []).filter(
        (record) => filter.operation === undefined || record.labels?.operation === filter.operation,
      )
      const actors = new Map<string, AccessLogRecords['actors'][number]>()
      for (const record of records) {
        const uid = record.protoPayload.authenticationInfo.principalSubject
        if (uid && !actors.has(uid))
          actors.set(uid, {
            uid,
            email: record.protoPayload.authenticationInfo.principalEmail,
            role: record.labels?.role ?? 'unknown',
          })
      }
      return { records, nextPageToken: body.nextPageToken ?? null, actors: [...actors.values()] }
    },
    async append(project, entries) {
      await call('entries:write', {
        logName: apiLog.replace(options.projectId, project),
        resource: { type: 'audited_resource', labels: { service: 'bosted-api', method: 'data_access' } },
        entries: entries.map((entry) => ({
          timestamp: new Date().toISOString(),
          ...auditPayload({ ...entry, serviceName: 'bosted-api' }),
        })),
      })
    },
    // Cloud Logging keeps entries immutable itself (a locked log bucket with a retention policy).
    verify: async () => null,
  }
}
