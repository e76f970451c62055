import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bostedAccessClassifier } from '@bosted/domain/access-classifier'
import { expect, test } from 'vitest'
import { Store } from '../store/store.ts'
import { AccessLog, type AccessRecord, GENESIS_HASH, linkHash } from './access-log.ts'
import { checkWrites } from './cross-check.ts'
import { NO_PERSON_DATA, roleOf } from './recorder.ts'

const entry = (personId: string, extra: Partial<AccessRecord> = {}): AccessRecord => ({
  project: 'p',
  personId,
  operation: 'get',
  resource: 'notes',
  resourceName: `projects/p/databases/(default)/documents/persons/${personId}/notes`,
  serviceName: 'firestore.googleapis.com',
  methodName: 'google.firestore.v1.Firestore.RunQuery',
  principal: { uid: 'emp', email: 'emp@x.dk', role: 'employee' },
  count: 3,
  callerIp: '127.0.0.1',
  ...extra,
})

test('entries are Cloud Audit Logs data-access records, chained from the genesis hash', () => {
  const log = new AccessLog({ inMemory: true })
  expect(log.append([entry('p1'), entry('p2')])).toEqual([1, 2])
  const rows = log.db.prepare('SELECT seq, record, prev_hash, hash FROM access_log ORDER BY seq').all() as {
    seq: number
    record: string
    prev_hash: string
    hash: string
  }[]
  expect(rows[0]?.prev_hash).toBe(GENESIS_HASH)
  expect(rows[0]?.hash).toBe(linkHash(GENESIS_HASH, rows[0]?.record ?? ''))
  expect(rows[1]?.prev_hash).toBe(rows[0]?.hash)
  const record = JSON.parse(rows[0]?.record ?? '{}')
  expect(record).toMatchObject({
    seq: 1,
    logName: 'projects/p/logs/cloudaudit.googleapis.com%2Fdata_access',
    protoPayload: {
      '@type': 'type.googleapis.com/google.cloud.audit.AuditLog',
      serviceName: 'firestore.googleapis.com',
      methodName: 'google.firestore.v1.Firestore.RunQuery',
      resourceName: 'projects/p/databases/(default)/documents/persons/p1/notes',
      authenticationInfo: { principalEmail: 'emp@x.dk', principalSubject: 'emp' },
      requestMetadata: { callerIp: '127.0.0.1' },
    },
    labels: { personId: 'p1', operation: 'get', resource: 'notes', role: 'employee', count: '3' },
  })
  expect(Date.parse(record.timestamp)).not.toBeNaN()
  expect(log.verify()).toEqual({ intact: true, entries: 2, brokenAt: null, pruned: 0 })
})

test("a person's entries come newest first, filtered and paged", () => {
  const log = new AccessLog({ inMemory: true })
  const at = (day: number) => new Date(Date.UTC(2026, 10, day, 9))
  log.append([
    entry('p1', { time: at(20) }),
    entry('p2', { time: at(20) }),
    entry('p1', { time: at(21), operation: 'update', principal: { uid: 'sup', email: null, role: 'superuser' } }),
    entry('p1', { time: at(22) }),
    entry('p1', { time: at(23) }),
  ])
  const all = log.list({ project: 'p', personId: 'p1', pageSize: 2 })
  expect(all.records.map((r) => r.seq)).toEqual([5, 4])
  expect(all.nextBeforeSeq).toBe(4)
  const next = log.list({ project: 'p', personId: 'p1', pageSize: 2, beforeSeq: 4 })
  expect(next.records.map((r) => r.seq)).toEqual([3, 1])
  expect(next.nextBeforeSeq).toBeNull()
  expect(log.list({ project: 'p', personId: 'p1', pageSize: 9, actor: 'sup' }).records.map((r) => r.seq)).toEqual([3])
  expect(
    log.list({ project: 'p', personId: 'p1', pageSize: 9, operation: 'update' }).records.map((r) => r.seq),
  ).toEqual([3])
  expect(
    log
      .list({ project: 'p', personId: 'p1', pageSize: 9, fromMs: at(21).getTime(), toMs: at(23).getTime() })
      .records.map((r) => r.seq),
  ).toEqual([4, 3])
  expect(log.list({ project: 'other', personId: 'p1', pageSize: 9 }).records).toEqual([])
  expect(log.actors('p', 'p1').sort((a, b) => a.uid.localeCompare(b.uid))).toEqual([
    { uid: 'emp', email: 'emp@x.dk', role: 'employee' },
    { uid: 'sup', email: null, role: 'superuser' },
  ])
})

test('an edited, removed or reordered entry breaks the chain at that entry', () => {
  const tamper = (sql: string) => {
    const log = new AccessLog({ inMemory: true })
    log.append([entry('p1'), entry('p1'), entry('p1'), entry('p1')])
    log.db.exec(sql)
    return log.verify()
  }
  expect(
    tamper(`UPDATE access_log SET record = replace(record, '"count":"3"', '"count":"1"') WHERE seq = 2`),
  ).toMatchObject({ intact: false, brokenAt: 2 })
  expect(tamper('DELETE FROM access_log WHERE seq = 3')).toMatchObject({ intact: false, brokenAt: 4 })
  expect(tamper('DELETE FROM access_log WHERE seq = 1')).toMatchObject({ intact: false, brokenAt: 2 })
  expect(tamper('DELETE FROM access_log WHERE seq = 4')).toMatchObject({ intact: true, entries: 3 })
  // Recomputing an edited entry's own hash does not help: the next entry still names the old one.
  const log = new AccessLog({ inMemory: true })
  log.append([entry('p1'), entry('p1'), entry('p1')])
  const row = log.db.prepare('SELECT record, prev_hash FROM access_log WHERE seq = 2').get() as {
    record: string
    prev_hash: string
  }
  const edited = row.record.replace('"count":"3"', '"count":"0"')
  log.db
    .prepare('UPDATE access_log SET record = ?, hash = ? WHERE seq = 2')
    .run(edited, linkHash(row.prev_hash, edited))
  expect(log.verify()).toMatchObject({ intact: false, brokenAt: 3 })
})

test('retention removes old entries and leaves a marker in the chain, so the chain still verifies', () => {
  const log = new AccessLog({ inMemory: true })
  const now = new Date('2026-11-24T12:00:00Z')
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000)
  log.append([
    entry('p1', { time: daysAgo(40) }),
    entry('p1', { time: daysAgo(35) }),
    entry('p1', { time: daysAgo(5) }),
  ])
  expect(log.prune(30, 'test', now)).toBe(2)
  const rows = log.db.prepare('SELECT seq, person_id, record FROM access_log ORDER BY seq').all() as {
    seq: number
    person_id: string
    record: string
  }[]
  expect(rows.map((r) => r.seq)).toEqual([3, 4])
  const marker = JSON.parse(rows[1]?.record ?? '{}').marker
  expect(marker).toMatchObject({
    kind: 'retention',
    prunedThroughSeq: 2,
    prunedCount: 2,
    retentionDays: 30,
    signedOffBy: 'test',
  })
  expect(rows[1]?.person_id).toBe('')
  expect(log.verify()).toEqual({ intact: true, entries: 2, brokenAt: null, pruned: 2 })
  // Nothing more to prune: no second marker.
  expect(log.prune(30, 'test', now)).toBe(0)
  // Entries go on after the marker; removing the marker itself breaks the chain.
  log.append([entry('p1')])
  expect(log.verify().intact).toBe(true)
  log.db.exec('DELETE FROM access_log WHERE seq = 4')
  expect(log.verify()).toMatchObject({ intact: false })
})

test('a reopened file continues the chain where it ends', () => {
  const dir = mkdtempSync(join(tmpdir(), 'access-log-'))
  try {
    const log = new AccessLog({ dataDir: dir })
    log.append([entry('p1'), entry('p1')])
    log.close()
    const reopened = new AccessLog({ dataDir: dir })
    expect(reopened.append([entry('p1')])).toEqual([3])
    expect(reopened.verify()).toEqual({ intact: true, entries: 3, brokenAt: null, pruned: 0 })
    reopened.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("without an injected classifier nothing is anyone's data; the role comes from the claims", () => {
  expect(NO_PERSON_DATA.document('persons/p1')).toBeNull()
  expect(NO_PERSON_DATA.object('persons/p1/avatar.png')).toBeNull()
  expect(NO_PERSON_DATA.prefixes).toEqual([])
  expect(roleOf({ admin: true, userRole: 'admin' }, 'a', 'p1')).toBe('admin')
  expect(roleOf({ userRole: 'superuser' }, 's', 'p1')).toBe('superuser')
  expect(roleOf({ userRole: 'user' }, 'e', 'p1')).toBe('employee')
  expect(roleOf({}, 'p1', 'p1')).toBe('person')
  expect(roleOf({}, 'x', 'p1')).toBe('unknown')
})

test("entries appended inside the store's transaction roll back with it, and the chain goes on from what committed", () => {
  const store = new Store({ inMemory: true })
  const log = new AccessLog({ db: store.db })
  expect(log.append([entry('p1')])).toEqual([1])
  // A write whose transaction fails after its entries were appended (a denial, a failed precondition, a full disk).
  expect(() =>
    store.transaction(() => {
      expect(log.append([entry('p1'), entry('p1')])).toEqual([2, 3])
      store.putDocument(
        'p',
        '(default)',
        { path: 'persons/p1/notes/n1', fields: {}, createTime: 1n, updateTime: 1n },
        'persons/p1',
        'notes',
        { writer: 'client', accessSeq: 2 },
      )
      throw new Error('SQLITE_FULL')
    }),
  ).toThrow('SQLITE_FULL')
  expect(store.getDocument('p', '(default)', 'persons/p1/notes/n1')).toBeNull()
  expect(log.append([entry('p1')])).toEqual([2])
  expect(log.verify()).toEqual({ intact: true, entries: 2, brokenAt: null, pruned: 0 })
  // Committed together: the document carries its entry's seq, and the cross-check finds it.
  store.transaction(() => {
    const [seq] = log.append([entry('p1', { operation: 'create' })])
    store.putDocument(
      'p',
      '(default)',
      { path: 'persons/p1/notes/n2', fields: {}, createTime: 1n, updateTime: 1n },
      'persons/p1',
      'notes',
      { writer: 'client', accessSeq: seq ?? null },
    )
  })
  expect(checkWrites(store.db, bostedAccessClassifier)).toMatchObject({ checked: 1, missingCount: 0 })
  // An entry of another person, or a read, does not count as the write's.
  store.db.prepare("UPDATE documents SET access_seq = 1 WHERE path = 'persons/p1/notes/n2'").run()
  expect(checkWrites(store.db, bostedAccessClassifier)).toMatchObject({
    checked: 1,
    missingCount: 1,
    missing: [{ kind: 'document', seq: 1 }],
  })
  // Retention that removed the entry is no gap: its marker records it.
  store.db.prepare("UPDATE documents SET access_seq = 3 WHERE path = 'persons/p1/notes/n2'").run()
  log.append([entry('p2', { time: new Date(Date.now() + 86_400_000) })])
  expect(log.prune(0, 'test', new Date(Date.now() + 1000))).toBe(3)
  expect(checkWrites(store.db, bostedAccessClassifier)).toMatchObject({ checked: 1, pruned: 1, missingCount: 0 })
  // Without the app's classifier no document is a person's, so there is nothing to check.
  expect(checkWrites(store.db, NO_PERSON_DATA)).toMatchObject({ checked: 0, missingCount: 0 })
  store.close()
})
