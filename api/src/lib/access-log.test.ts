import type { AuditLogRecord } from '@bosted/domain/access-log'
import { expect, test } from 'vitest'
import { toEntry } from './access-entries.ts'
import { cloudLoggingAccessLog } from './access-log.ts'

// The production path (Cloud Logging) cannot reach Google here: its requests are checked against a
// recording fetch, and Firestore's own audit entries (no labels) against the viewer's mapping.

function recorder(reply: unknown) {
  const calls: { url: string; body: Record<string, unknown> }[] = []
  const authorizedFetch = async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(String(init.body)) as Record<string, unknown> })
    return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } })
  }
  return { calls, authorizedFetch }
}

/** A Data Access audit entry as Firestore writes it (no labels, no seq). */
const firestoreEntry = (methodName: string, resourceName: string): AuditLogRecord =>
  ({
    insertId: 'x1',
    timestamp: '2026-11-23T07:14:00.000Z',
    logName: 'projects/prod/logs/cloudaudit.googleapis.com%2Fdata_access',
    protoPayload: {
      '@type': 'type.googleapis.com/google.cloud.audit.AuditLog',
      serviceName: 'firestore.googleapis.com',
      methodName,
      resourceName,
      authenticationInfo: { principalEmail: 'signe@kommune.dk', principalSubject: 'uid-signe' },
      requestMetadata: { callerIp: '10.1.2.3' },
    },
  }) as unknown as AuditLogRecord

test("Cloud Logging: a person's log is one entries.list over Firestore's audit log and the api's, newest first", async () => {
  const { calls, authorizedFetch } = recorder({
    entries: [
      firestoreEntry(
        'google.firestore.v1.Firestore.RunQuery',
        'projects/prod/databases/(default)/documents/persons/p1/notes',
      ),
    ],
    nextPageToken: 'next',
  })
  const log = cloudLoggingAccessLog({ projectId: 'prod', authorizedFetch })
  const page = await log.list('prod', 'p1', { pageSize: 50, fromMs: Date.UTC(2026, 10, 1), actor: 'uid-signe' })
  expect(calls).toHaveLength(1)
  expect(calls[0]?.url).toBe('https://logging.googleapis.com/v2/entries:list')
  expect(calls[0]?.body).toMatchObject({ resourceNames: ['projects/prod'], orderBy: 'timestamp desc', pageSize: 50 })
  const filter = String(calls[0]?.body.filter)
  expect(filter).toContain('logName="projects/prod/logs/cloudaudit.googleapis.com%2Fdata_access"')
  expect(filter).toContain('protoPayload.resourceName:"/documents/persons/p1"')
  expect(filter).toContain('labels.personId="p1"')
  expect(filter).toContain('timestamp>="2026-11-01T00:00:00.000Z"')
  expect(filter).toContain('protoPayload.authenticationInfo.principalSubject="uid-signe"')
  expect(page.nextPageToken).toBe('next')
  expect(page.actors).toEqual([{ uid: 'uid-signe', email: 'signe@kommune.dk', role: 'unknown' }])
  expect(await log.verify()).toBeNull()
})

test("Cloud Logging: the api's own entries go to its log with entries.write, in the audit shape", async () => {
  const { calls, authorizedFetch } = recorder({})
  const log = cloudLoggingAccessLog({ projectId: 'prod', authorizedFetch })
  await log.append('prod', [
    {
      personId: 'p1',
      operation: 'export',
      resource: 'export',
      resourceName: 'persons/p1',
      methodName: 'bosted.api.ExportPerson',
      principal: { uid: 'uid-admin', email: 'admin@kommune.dk', role: 'admin' },
      count: 1,
      callerIp: '10.1.2.4',
    },
  ])
  expect(calls[0]?.url).toBe('https://logging.googleapis.com/v2/entries:write')
  expect(calls[0]?.body).toMatchObject({
    logName: 'projects/prod/logs/bosted-api%2Fdata_access',
    entries: [
      {
        labels: { personId: 'p1', operation: 'export', resource: 'export', role: 'admin', count: '1' },
        protoPayload: {
          methodName: 'bosted.api.ExportPerson',
          authenticationInfo: { principalEmail: 'admin@kommune.dk', principalSubject: 'uid-admin' },
          requestMetadata: { callerIp: '10.1.2.4' },
        },
      },
    ],
  })
})

test("Firestore's own audit entries read as the viewer's: the kind of data and the operation from the method", () => {
  const docs = 'projects/prod/databases/(default)/documents'
  expect(
    toEntry(firestoreEntry('google.firestore.v1.Firestore.RunQuery', `${docs}/persons/p1/notes`), 'p1'),
  ).toMatchObject({
    seq: 0,
    personId: 'p1',
    operation: 'list',
    resource: 'notes',
    resourceName: 'persons/p1/notes',
    count: 1,
    callerIp: '10.1.2.3',
    principal: { uid: 'uid-signe', email: 'signe@kommune.dk', name: null, role: 'unknown' },
  })
  expect(
    toEntry(firestoreEntry('google.firestore.v1.Firestore.BatchGetDocuments', `${docs}/persons/p1`), 'p1'),
  ).toMatchObject({
    operation: 'get',
    resource: 'person',
  })
  expect(
    toEntry(firestoreEntry('google.firestore.v1.Firestore.Commit', `${docs}/persons/p1/registrations/r1`), 'p1'),
  ).toMatchObject({ operation: 'update', resource: 'registrations' })
})
