import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bostedAccessClassifier } from '@bosted/domain/access-classifier'
import Database from 'better-sqlite3'
import { afterEach, expect, test, vi } from 'vitest'
import { AccessLog, type AccessRecord } from '../src/audit/access-log.ts'
import { type EmulatorLite, signCustomToken, startEmulatorLite } from '../src/index.ts'
import { auditVerify } from './cli-process.ts'

// ADR 0017: the access log lives in the store's file; audit-verify cross-checks every client write
// of a person's data against its entry; a data directory's older access-log.sqlite is moved in once.

const PROJECT = 'demo-verify'
const root = `projects/${PROJECT}/databases/(default)/documents`
const OWNER = { authorization: 'Bearer owner', 'content-type': 'application/json' }
const dirs: string[] = []

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'access-log-verify-'))
  dirs.push(dir)
  return dir
}

const start = (dataDir: string) =>
  startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    dataDir,
    authProjectId: PROJECT,
    accessClassifier: bostedAccessClassifier,
  })

async function employee(emulator: EmulatorLite): Promise<string> {
  const response = await fetch(
    `http://127.0.0.1:${emulator.authPort}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: signCustomToken(emulator.serviceAccount, 'emp', { userRole: 'user' }) }),
    },
  )
  return `Bearer ${((await response.json()) as { idToken: string }).idToken}`
}

async function commit(port: number, authorization: string, path: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/${root}:commit`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ writes: [{ update: { name: `${root}/${path}`, fields: { text: { stringValue: 'x' } } } }] }),
  })
  expect(response.status).toBe(200)
}

async function verifyRoute(emulator: EmulatorLite) {
  const response = await fetch(`http://127.0.0.1:${emulator.adminPort}/emulator/v1/accessLog:verify`, {
    headers: OWNER,
  })
  return (await response.json()) as Record<string, unknown>
}

test("audit-verify names a client's stored write whose entry was cut off the end of the log, which the chain alone cannot show", async () => {
  const dataDir = tempDir()
  let emulator = await start(dataDir)
  const token = await employee(emulator)
  await commit(emulator.firestorePort, token, 'persons/p1/notes/n1')
  await commit(emulator.firestorePort, token, 'persons/p1/notes/n2')
  const upload = await fetch(
    `http://127.0.0.1:${emulator.storagePort}/v0/b/${PROJECT}.appspot.com/o?name=${encodeURIComponent('persons/p1/photo.jpg')}`,
    { method: 'POST', headers: { authorization: token, 'content-type': 'image/jpeg' }, body: new Uint8Array(100) },
  )
  expect(upload.status).toBe(200)
  // The server's own writes (the api, the seed) are logged by the api, not checked here.
  await commit(emulator.adminPort, 'Bearer owner', 'persons/p2')
  expect(await verifyRoute(emulator)).toMatchObject({ intact: true, writesChecked: 3, writesWithoutEntry: 0 })
  await emulator.close()

  const whole = auditVerify(dataDir)
  expect(whole.stdout).toContain('every one of 3 documents and files written by clients has its entry')
  expect(whole.status).toBe(0)

  // Someone with the file removes the last two entries: the chain that is left is whole.
  const db = new Database(join(dataDir, 'emulator-lite.sqlite'))
  db.prepare('DELETE FROM access_log WHERE seq >= 2').run()
  db.close()
  const cut = auditVerify(dataDir)
  expect(cut.stdout).toContain('the access log is intact: 1 entries checked')
  expect(cut.stderr).toContain('2 of 3 documents and files written by clients have NO entry in the access log')
  expect(cut.stderr).toContain(`document ${PROJECT}/(default)/persons/p1/notes/n2 (entry 2)`)
  expect(cut.stderr).toContain(`object ${PROJECT}.appspot.com/persons/p1/photo.jpg (entry 3)`)
  expect(cut.status).toBe(1)

  // The admin page's check (the api's GET /api/access-log/verify) sees the same.
  emulator = await start(dataDir)
  try {
    expect(await verifyRoute(emulator)).toMatchObject({
      intact: true,
      writesChecked: 3,
      writesWithoutEntry: 2,
      withoutEntry: [
        { kind: 'document', name: `${PROJECT}/(default)/persons/p1/notes/n2`, seq: 2 },
        { kind: 'object', name: `${PROJECT}.appspot.com/persons/p1/photo.jpg`, seq: 3 },
      ],
    })
  } finally {
    await emulator.close()
  }
})

const legacyEntry = (personId: string): AccessRecord => ({
  project: PROJECT,
  personId,
  operation: 'get',
  resource: 'notes',
  resourceName: `${root}/persons/${personId}/notes`,
  serviceName: 'firestore.googleapis.com',
  methodName: 'google.firestore.v1.Firestore.RunQuery',
  principal: { uid: 'emp', email: null, role: 'employee' },
  count: 2,
  callerIp: '127.0.0.1',
})

test('a data directory with its access log in access-log.sqlite has it moved into the store file once, and the chain goes on', async () => {
  const dataDir = tempDir()
  const legacyFile = join(dataDir, 'access-log.sqlite')
  // The log as an earlier emulator-lite kept it: its own file beside the store.
  const legacy = new AccessLog({ file: legacyFile })
  legacy.append([legacyEntry('p1'), legacyEntry('p1'), legacyEntry('p2')])
  legacy.close()

  const said = vi.spyOn(console, 'log').mockImplementation(() => {})
  let emulator = await start(dataDir)
  const lines = said.mock.calls.map((call) => String(call[0]))
  said.mockRestore()
  expect(lines.filter((line) => line.includes('moved the access log'))).toEqual([
    expect.stringContaining(`moved the access log (3 entries) from ${legacyFile}`),
  ])
  expect(existsSync(legacyFile)).toBe(false)
  expect(existsSync(`${legacyFile}.migrated`)).toBe(true)
  const token = await employee(emulator)
  await commit(emulator.firestorePort, token, 'persons/p1/notes/n1')
  const page = (await (
    await fetch(`http://127.0.0.1:${emulator.adminPort}/emulator/v1/projects/${PROJECT}/accessLog?personId=p1`, {
      headers: OWNER,
    })
  ).json()) as { entries: { seq: number; labels: { operation: string } }[] }
  expect(page.entries.map((entry) => [entry.seq, entry.labels.operation])).toEqual([
    [4, 'create'],
    [2, 'get'],
    [1, 'get'],
  ])
  await emulator.close()
  const verified = auditVerify(dataDir)
  expect(verified.stdout).toContain('the access log is intact: 4 entries checked')
  expect(verified.status).toBe(0)

  // A crash between the copy and the rename: the next start finds the entries already moved and only renames.
  copyFileSync(`${legacyFile}.migrated`, legacyFile)
  emulator = await start(dataDir)
  await emulator.close()
  expect(existsSync(legacyFile)).toBe(false)
  expect(existsSync(`${legacyFile}.migrated-2`)).toBe(true)
  const again = auditVerify(dataDir)
  expect(again.stdout).toContain('the access log is intact: 4 entries checked')
  expect(again.status).toBe(0)
})
