import {
  ACCESS_OPERATIONS,
  ACCESS_RESOURCES,
  ACCESS_ROLES,
  type AccessLogEntry,
  type AccessOperation,
  type AccessResource,
  type AccessRole,
  type AuditLogRecord,
} from '@bosted/domain/access-log'
import { displayName } from '@bosted/domain/names'
import { PERSON_OBJECTS_ROOT, PERSON_SUBCOLLECTIONS, PERSONS, personPath, userPath } from '@bosted/domain/paths'
import type { Firestore } from 'firebase-admin/firestore'
import { isDocumentId } from './access.ts'

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value)

const SUBCOLLECTIONS = PERSON_SUBCOLLECTIONS.join('|')
/** …/documents/persons/{id}[/answers|registrations|notes…]: the kind of data a document or collection is. */
const PERSON_DATA_NAME = new RegExp(`/documents/${PERSONS}/[^/]+(?:/(${SUBCOLLECTIONS}))?`)
/** A query's collection (group) at the end of the name: …/{path=**}/notes. */
const COLLECTION_NAME_END = new RegExp(`/(${SUBCOLLECTIONS})$`)

/** Firestore's own audit entries (production) carry no labels: the kind of data from the resource name. */
function resourceOf(resourceName: string): AccessResource {
  const sub = PERSON_DATA_NAME.exec(resourceName)?.[1] ?? COLLECTION_NAME_END.exec(resourceName)?.[1]
  if (isOneOf(PERSON_SUBCOLLECTIONS, sub)) return sub
  if (resourceName.includes(`/objects/${PERSON_OBJECTS_ROOT}`)) return 'avatar'
  return 'person'
}

/** …and the operation from the method: Get/BatchGet a get, RunQuery/List… a list, Commit/Write an update. */
function operationOf(methodName: string): AccessOperation {
  if (/(BatchGetDocuments|GetDocument|objects\.get)$/.test(methodName)) return 'get'
  if (/(RunQuery|RunAggregationQuery|ListDocuments|objects\.list)$/.test(methodName)) return 'list'
  if (/objects\.delete$/.test(methodName)) return 'delete'
  if (/objects\.create$/.test(methodName)) return 'create'
  return 'update'
}

/** A record as the viewer shows it, before names are added. */
export function toEntry(record: AuditLogRecord, personId: string): AccessLogEntry {
  const labels = record.labels ?? {}
  const { authenticationInfo, requestMetadata, methodName, resourceName } = record.protoPayload
  const count = Number(labels.count ?? 1)
  return {
    seq: record.seq ?? 0,
    timestamp: record.timestamp,
    personId: labels.personId ?? personId,
    principal: {
      uid: authenticationInfo?.principalSubject ?? null,
      email: authenticationInfo?.principalEmail ?? null,
      name: null,
      role: isOneOf(ACCESS_ROLES, labels.role) ? labels.role : 'unknown',
    },
    operation: isOneOf(ACCESS_OPERATIONS, labels.operation) ? labels.operation : operationOf(methodName),
    resource: isOneOf(ACCESS_RESOURCES, labels.resource) ? labels.resource : resourceOf(resourceName),
    resourceName: resourceName.replace(/^projects\/[^/]+\/databases\/[^/]+\/documents\//, ''),
    count: Number.isInteger(count) && count >= 0 ? count : 1,
    callerIp: requestMetadata?.callerIp ?? null,
  }
}

/**
 * The names of the people in a log: staff from users/{uid}, persons (themselves) from persons/{uid}.
 * One getAll per kind for the uids of a page.
 */
export async function namesOf(db: Firestore, uids: Iterable<string>): Promise<Map<string, string>> {
  const ids = [...new Set(uids)].filter(isDocumentId)
  const names = new Map<string, string>()
  if (ids.length === 0) return names
  const [users, persons] = await Promise.all([
    db.getAll(...ids.map((id) => db.doc(userPath(id)))),
    db.getAll(...ids.map((id) => db.doc(personPath(id)))),
  ])
  for (const snapshot of [...persons, ...users]) {
    const data = snapshot.data()
    if (!data) continue
    const name = displayName(data)
    if (name !== '') names.set(snapshot.id, name)
  }
  return names
}

/** Entries with their people's names. */
export function withNames(entries: AccessLogEntry[], names: Map<string, string>): AccessLogEntry[] {
  return entries.map((entry) => ({
    ...entry,
    principal: { ...entry.principal, name: entry.principal.uid ? (names.get(entry.principal.uid) ?? null) : null },
  }))
}

/** The role a caller has for the log (as the rules read the token: admin claim, userRole). */
export function accessRoleOf(caller: { role: string; claims: { admin?: boolean | undefined } }): AccessRole {
  if (caller.claims.admin === true || caller.role === 'admin') return 'admin'
  if (caller.role === 'superuser') return 'superuser'
  return 'employee'
}
