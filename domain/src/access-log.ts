import * as z from 'zod/mini'
import { isDay } from './days.ts'

/**
 * The access log (Adgangslog, issue 22): who read or changed a person's data, recorded where the data
 * is served (emulator-lite here; Firestore's Data Access audit logs in production).
 *
 * Entries are stored in the shape of Cloud Audit Logs data-access entries (AuditLogRecord); the api
 * turns them into AccessLogEntry for the viewer, adding the staff member's name.
 */

/** What was done: a Firestore read (get/list), a write, or one of the api's privileged actions. */
export const ACCESS_OPERATIONS = ['get', 'list', 'create', 'update', 'delete', 'export', 'viewLog'] as const
export type AccessOperation = (typeof ACCESS_OPERATIONS)[number]

/** Which of the person's data: the person document, its answer options, registrations, notes, avatar. */
export const ACCESS_RESOURCES = [
  'person',
  'answers',
  'registrations',
  'notes',
  'avatar',
  'accessLog',
  'export',
] as const
export type AccessResource = (typeof ACCESS_RESOURCES)[number]

/** The caller's role from their token (claims), or 'person' for the person themselves, 'service' for the api. */
export const ACCESS_ROLES = ['admin', 'superuser', 'employee', 'person', 'service', 'unknown'] as const
export type AccessRole = (typeof ACCESS_ROLES)[number]

/**
 * One entry as the data layer keeps it: a Cloud Audit Logs data-access LogEntry (timestamp,
 * protoPayload.authenticationInfo.principalEmail, methodName, resourceName, requestMetadata.callerIp),
 * with the labels that make it readable per person (`labels`, as Cloud Logging's user labels).
 */
export type AuditLogRecord = {
  /** Position in the hash chain, from 1. */
  seq: number
  insertId: string
  timestamp: string
  logName: string
  protoPayload: {
    '@type': 'type.googleapis.com/google.cloud.audit.AuditLog'
    serviceName: 'firestore.googleapis.com' | 'firebasestorage.googleapis.com' | 'bosted-api'
    methodName: string
    resourceName: string
    authenticationInfo: { principalEmail: string | null; principalSubject: string | null }
    requestMetadata: { callerIp: string | null }
  }
  labels: {
    personId: string
    operation: AccessOperation
    resource: AccessResource
    role: AccessRole
    count: string
  }
}

/** What one access is, before it becomes a log entry (emulator-lite's chain, or Cloud Logging). */
export type AccessFacts = {
  personId: string
  operation: AccessOperation
  resource: AccessResource
  resourceName: string
  serviceName: AuditLogRecord['protoPayload']['serviceName']
  methodName: string
  principal: { uid: string | null; email: string | null; role: AccessRole }
  count: number
  callerIp: string | null
}

/** The Cloud Audit Logs shape of an access: its payload and the labels that file it under the person. */
export function auditPayload(facts: AccessFacts): Pick<AuditLogRecord, 'protoPayload' | 'labels'> {
  return {
    protoPayload: {
      '@type': 'type.googleapis.com/google.cloud.audit.AuditLog',
      serviceName: facts.serviceName,
      methodName: facts.methodName,
      resourceName: facts.resourceName,
      authenticationInfo: { principalEmail: facts.principal.email, principalSubject: facts.principal.uid },
      requestMetadata: { callerIp: facts.callerIp },
    },
    labels: {
      personId: facts.personId,
      operation: facts.operation,
      resource: facts.resource,
      role: facts.principal.role,
      count: String(facts.count),
    },
  }
}

/** The viewer's row (GET /api/person/{id}/access-log). */
export const AccessLogEntrySchema = z.object({
  seq: z.int(),
  /** RFC 3339. */
  timestamp: z.string(),
  personId: z.string(),
  principal: z.object({
    uid: z.nullable(z.string()),
    email: z.nullable(z.string()),
    /** users/{uid}.displayName (or the person's name), null when unknown. */
    name: z.nullable(z.string()),
    role: z.enum(ACCESS_ROLES),
  }),
  operation: z.enum(ACCESS_OPERATIONS),
  resource: z.enum(ACCESS_RESOURCES),
  /** The document path, or the query's collection (e.g. persons/p1/notes). */
  resourceName: z.string(),
  /** Documents returned or written (1 for a get, an avatar, an export). */
  count: z.int().check(z.nonnegative()),
  callerIp: z.nullable(z.string()),
})
export type AccessLogEntry = z.infer<typeof AccessLogEntrySchema>

const day = z.string().check(z.refine(isDay, 'a day as YYYY-MM-DD'))

/** Filters and paging of the viewer (query string of GET /api/person/{id}/access-log). */
export const AccessLogQuerySchema = z.object({
  /** First and last day (Europe/Copenhagen), inclusive. */
  from: z.optional(day),
  to: z.optional(day),
  /** Only this principal (uid). */
  actor: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
  operation: z.optional(z.enum(ACCESS_OPERATIONS)),
  /** Opaque: the nextPageToken of the previous page. */
  pageToken: z.optional(z.string().check(z.maxLength(64))),
  pageSize: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1000)), 50),
})
export type AccessLogQuery = z.input<typeof AccessLogQuerySchema>

export const AccessLogPageSchema = z.object({
  data: z.object({
    /** Newest first. */
    entries: z.array(AccessLogEntrySchema),
    nextPageToken: z.nullable(z.string()),
    /** Everyone who appears in this person's log (for the staff filter), by name. */
    actors: z.array(z.object({ uid: z.string(), name: z.nullable(z.string()), role: z.enum(ACCESS_ROLES) })),
  }),
})
export type AccessLogPage = z.infer<typeof AccessLogPageSchema>['data']

/** GET /api/access-log/verify: whether the whole chain is intact. */
export const AccessLogVerifySchema = z.object({
  data: z.object({
    intact: z.boolean(),
    /** Entries checked. */
    entries: z.int(),
    /** The first entry that does not match its hash or predecessor, when broken. */
    brokenAt: z.nullable(z.int()),
    /** Entries removed by retention so far (each pruning is itself an entry of the chain). */
    pruned: z.int(),
    /** Stored documents and files of persons written by clients, checked against their entries (ADR 0017). */
    writesChecked: z.optional(z.int()),
    /** Of those, how many have no entry in the log (absent where the log cannot tell). */
    writesWithoutEntry: z.optional(z.int()),
  }),
})
export type AccessLogVerification = z.infer<typeof AccessLogVerifySchema>['data']

/** A person's log in production is Firestore's Data Access audit log; 'emulator' is emulator-lite's chain. */
export const ACCESS_LOG_SOURCES = ['emulator', 'cloud-logging'] as const

/** An entry as one Danish sentence (without its time): "Birgitte Holm (medarbejder) læste 12 dagbogsnotater". */
export function describeAccess(
  entry: Pick<AccessLogEntry, 'principal' | 'operation' | 'resource' | 'count'>,
  text: DanishAccessText,
): string {
  const who = entry.principal.name ?? entry.principal.email ?? text.unknownActor
  const role = text.roles[entry.principal.role]
  let did: string
  if (entry.operation === 'export') did = text.exported
  else if (entry.operation === 'viewLog') did = text.viewedLog
  else {
    const object =
      entry.resource in text.objects ? text.objects[entry.resource as keyof DanishAccessText['objects']] : null
    did = `${text.verbs[entry.operation]} ${object ? object(entry.count) : entry.resource}`
  }
  return text.sentence(who, role, did)
}

/** The part of `daAccessLog` describeAccess needs (passed in, so this module does not import the messages). */
export type DanishAccessText = {
  roles: Record<AccessRole, string>
  sentence: (who: string, role: string, did: string) => string
  unknownActor: string
  verbs: Record<'get' | 'list' | 'create' | 'update' | 'delete', string>
  objects: Record<'person' | 'answers' | 'registrations' | 'notes' | 'avatar', (count: number) => string>
  exported: string
  viewedLog: string
}

const danishTime = new Intl.DateTimeFormat('da-DK', {
  timeZone: 'Europe/Copenhagen',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})

/** "23.11.2026 08:14" in Copenhagen time. */
export function formatAccessTime(timestamp: string): string {
  const parts = Object.fromEntries(danishTime.formatToParts(new Date(timestamp)).map((part) => [part.type, part.value]))
  return `${parts.day}.${parts.month}.${parts.year} ${parts.hour}:${parts.minute}`
}
