// The pilot's tools on the host, against a real emulator-lite (issue 31 points 1 and 5): an online
// backup taken while a writer commits is one consistent state per SQLite file, restores to exactly
// that state (rows and SHA-256 of every table) and serves it again; a truncated or tampered archive
// and one from a newer schema are refused without touching the data; retention keeps the newest;
// the self-signed certificate names the host and a given key must belong to the given certificate.
import { createPrivateKey, X509Certificate } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { backup, digest, knownMigrations, nextRun, prune, restore, verify } from '@bosted/docker/pilot/ops'
import { checkCertificate, ensureCertificate, selfSignedServerCertificate } from '@bosted/docker/pilot/tls'
import { type EmulatorLite, startEmulatorLite } from '@bosted/emulator-lite'
import { afterEach, describe, expect, test } from 'vitest'

const PROJECT = 'demo-pilot-tools'
const ROOT = `projects/${PROJECT}/databases/(default)/documents`
let emulator: EmulatorLite | undefined
afterEach(async () => {
  await emulator?.close()
  emulator = undefined
})

async function startIn(dataDir: string): Promise<EmulatorLite> {
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    adminPort: 0,
    authProjectId: PROJECT,
    dataDir,
  })
  return emulator
}

async function commit(lite: EmulatorLite, writes: unknown[]): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${lite.adminPort}/v1/${ROOT}:commit`, {
    method: 'POST',
    headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
    body: JSON.stringify({ writes }),
  })
  expect(response.status).toBe(200)
}
const put = (path: string, fields: Record<string, unknown>) => ({ update: { name: `${ROOT}/${path}`, fields } })

describe('backup and restore', () => {
  test('an online backup while writing restores exactly its state, and the restored data serves', async () => {
    const work = mkdtempSync(join(tmpdir(), 'pilot-tools-'))
    const dataDir = join(work, 'data')
    const lite = await startIn(join(dataDir, 'emulator-lite'))
    await commit(lite, [put('bosted/schema', { applied: { arrayValue: { values: [{ stringValue: '001-x' }] } } })])
    for (let i = 0; i < 20; i++)
      await commit(
        lite,
        Array.from({ length: 50 }, (_, j) => put(`load/d${i * 50 + j}`, { n: { integerValue: String(i * 50 + j) } })),
      )
    let writing = true
    let written = 0
    const writer = (async () => {
      while (writing) await commit(lite, [put(`writer/w${written++}`, { i: { integerValue: String(written) } })])
    })()
    const made = await backup({ dataDir, backupDir: join(work, 'backups') })
    writing = false
    await writer
    await commit(lite, [put('writer/after-backup', { late: { booleanValue: true } })])
    expect(written).toBeGreaterThan(0)
    expect(made.manifest.schema.migrations).toEqual(['001-x'])
    expect(made.manifest.counts.documents).toBeGreaterThanOrEqual(1001)
    for (const part of made.manifest.parts) expect(part.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(made.manifest.parts.map((part: { path: string }) => part.path)).toEqual(
      expect.arrayContaining(['emulator-lite/emulator-lite.sqlite', 'emulator-lite/admin-secret']),
    )
    // The disk reserve and uploads in progress are emulator-lite's own, made again at its start.
    expect(existsSync(join(dataDir, 'emulator-lite', 'disk-reserve'))).toBe(true)
    expect(made.manifest.parts.filter((part: { path: string }) => /disk-reserve|upload-spool/.test(part.path))).toEqual(
      [],
    )

    const unpacked = verify(made.archive, { workDir: work, known: ['001-x'] })
    const archived = digest(join(unpacked.dir, 'data'))
    await lite.close()
    emulator = undefined
    restore(made.archive, { dataDir, workDir: work, known: ['001-x'] })
    expect(digest(dataDir)).toEqual(archived)
    expect(readdirSync(join(dataDir, 'before-restore'))).toContain('emulator-lite')

    const again = await startIn(join(dataDir, 'emulator-lite'))
    const late = await fetch(`http://127.0.0.1:${again.adminPort}/v1/${ROOT}/writer/after-backup`, {
      headers: { authorization: 'Bearer owner' },
    })
    expect(late.status).toBe(404)
    const early = await fetch(`http://127.0.0.1:${again.adminPort}/v1/${ROOT}/load/d999`, {
      headers: { authorization: 'Bearer owner' },
    })
    expect(early.status).toBe(200)
  })

  test('a truncated, a tampered and a newer archive are refused and change nothing', async () => {
    const work = mkdtempSync(join(tmpdir(), 'pilot-tools-'))
    const dataDir = join(work, 'data')
    const lite = await startIn(join(dataDir, 'emulator-lite'))
    await commit(lite, [put('bosted/schema', { applied: { arrayValue: { values: [{ stringValue: '009-future' }] } } })])
    const made = await backup({ dataDir, backupDir: join(work, 'backups') })
    await lite.close()
    emulator = undefined
    const before = digest(dataDir)

    const truncated = join(work, 'truncated.tar.gz')
    writeFileSync(truncated, readFileSync(made.archive))
    truncateSync(truncated, Math.floor(statSync(truncated).size / 2))
    expect(() => restore(truncated, { dataDir, workDir: work })).toThrow(/damaged or incomplete.*nothing was changed/)
    expect(() => restore(made.archive, { dataDir, workDir: work, known: ['001-x'] })).toThrow(
      /newer Bosted \(data migrations 009-future/,
    )
    const garbage = join(work, 'garbage.tar.gz')
    writeFileSync(garbage, 'not an archive')
    expect(() => verify(garbage, { workDir: work })).toThrow(/damaged or incomplete/)
    expect(digest(dataDir)).toEqual(before)
  })

  test('retention keeps the newest archives; the schedule is daily at a UTC time', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pilot-prune-'))
    const names = ['20261101', '20261102', '20261103', '20261104'].map((day) => `bosted-backup-${day}T023000Z.tar.gz`)
    for (const name of names) writeFileSync(join(dir, name), '')
    writeFileSync(join(dir, 'other.txt'), '')
    expect(prune(dir, 2)).toEqual(names.slice(0, 2))
    expect(readdirSync(dir).sort()).toEqual(['other.txt', ...names.slice(2)].sort())
    expect(nextRun('02:30', new Date('2026-11-25T01:00:00Z')).toISOString()).toBe('2026-11-25T02:30:00.000Z')
    expect(nextRun('02:30', new Date('2026-11-25T02:30:00Z')).toISOString()).toBe('2026-11-26T02:30:00.000Z')
    expect(nextRun('02:30:15', new Date('2026-11-25T02:30:00Z')).toISOString()).toBe('2026-11-25T02:30:15.000Z')
    expect(() => nextRun('2:30')).toThrow(/HH:MM/)
    expect(() => nextRun('02:30:60')).toThrow(/HH:MM/)
  })

  test("this version's migrations are the seed's files", () => {
    expect(knownMigrations()).toEqual(
      expect.arrayContaining(['001-location-answer-defaults', '002-care-record-locations']),
    )
  })
})

describe('the certificate', () => {
  test('a generated certificate names the host, is kept, and a given one must match its key', () => {
    const work = mkdtempSync(join(tmpdir(), 'pilot-tls-'))
    const tlsDir = join(work, 'tls')
    const inputDir = join(work, 'in')
    mkdirSync(tlsDir)
    mkdirSync(inputDir)
    const first = ensureCertificate({ tlsDir, inputDir, host: 'bosted.kommune.dk' })
    expect(first.action).toBe('generated')
    const cert = new X509Certificate(readFileSync(join(tlsDir, 'cert.pem')))
    expect(cert.subjectAltName).toContain('DNS:bosted.kommune.dk')
    expect(cert.checkPrivateKey(createPrivateKey(readFileSync(join(tlsDir, 'key.pem'))))).toBe(true)
    expect(ensureCertificate({ tlsDir, inputDir, host: 'bosted.kommune.dk' })).toMatchObject({
      action: 'kept',
      fingerprint: first.fingerprint,
    })
    expect(ensureCertificate({ tlsDir, inputDir, host: 'other.kommune.dk' }).action).toBe('generated')

    const given = selfSignedServerCertificate('given.kommune.dk')
    const stranger = selfSignedServerCertificate('given.kommune.dk')
    expect(() => checkCertificate(given.cert, stranger.key)).toThrow(/not the private key/)
    writeFileSync(join(inputDir, 'cert.pem'), given.cert)
    writeFileSync(join(inputDir, 'key.pem'), given.key)
    expect(ensureCertificate({ tlsDir, inputDir, host: 'x' }).action).toBe('provided')
    expect(readFileSync(join(tlsDir, 'cert.pem'), 'utf8')).toBe(given.cert)
  })
})
