// Upgrades of a pilot (issue 31 point 6): a newer version runs the migrations the data has not had,
// once, and records them; an older version refuses data a newer one migrated, changing nothing; the
// demo seed refuses a pilot (unless told it is a throwaway one under test); make pilot-admin makes an administrator with a generated password.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readEmulatorHosts } from './env.ts'
import type { FirebaseClients } from './lib/firebase.ts'
import { migratePending, NewerDataError, SCHEMA_DOCUMENT } from './migrate-project.ts'
import { MIGRATIONS } from './migrations/index.ts'
import type { Migration } from './migrations/migration.ts'
import { createPilotAdmin, generatePassword } from './pilot-admin.ts'
import { seed } from './seed-project.ts'
import { clientsFor } from './testing/emulators.ts'

const PROJECT = 'demo-seed-migrate-pending'
const options = { projectId: PROJECT, bucket: `${PROJECT}.appspot.com` }
let clients: FirebaseClients

beforeAll(async () => {
  clients = clientsFor(PROJECT)
})
afterAll(async () => {
  await clients.close()
})

const counting = (id: string, runs: string[]): Migration => ({
  id,
  description: id,
  run: async () => {
    runs.push(id)
    return { scanned: 0, updated: 0 }
  },
})

test('pending migrations run once each, are recorded and logged; an older version refuses the data', async () => {
  const runs: string[] = []
  const lines: string[] = []
  const log = (line: string) => lines.push(line)
  const v1 = [counting('001-a', runs)]
  const v2 = [...v1, counting('002-b', runs)]
  expect(await migratePending({ ...options, migrations: v1, pilot: true, log })).toEqual({
    applied: ['001-a'],
    pending: ['001-a'],
  })
  // The newer version: only 002 is pending.
  expect((await migratePending({ ...options, migrations: v2, log })).pending).toEqual(['002-b'])
  // Started again: nothing to do.
  expect((await migratePending({ ...options, migrations: v2, log })).pending).toEqual([])
  expect(runs).toEqual(['001-a', '002-b'])
  expect(lines).toContainEqual('migrate: 1 pending: 002-b')
  expect(lines).toContainEqual(expect.stringMatching(/^migrate: schema up to date \(2 migrations applied\)/))
  const before = (await clients.db.doc(SCHEMA_DOCUMENT).get()).updateTime
  // The older version meets data the newer one migrated.
  await expect(migratePending({ ...options, migrations: v1, log })).rejects.toThrow(NewerDataError)
  await expect(migratePending({ ...options, migrations: v1, log })).rejects.toThrow(/newer Bosted .*002-b/)
  expect((await clients.db.doc(SCHEMA_DOCUMENT).get()).updateTime?.isEqual(before as never)).toBe(true)
  expect(runs).toEqual(['001-a', '002-b'])
})

test('the demo seed refuses a pilot and writes nothing', async () => {
  const before = (await clients.db.collection('users').get()).size
  await expect(seed({ ...options, ifEmpty: false, today: '2026-05-01' })).rejects.toThrow(/is a pilot/)
  expect((await clients.db.collection('users').get()).size).toBe(before)
})

test('with allowPilot (a throwaway pilot under test only) the demo seed fills a pilot', async () => {
  const result = await seed({ ...options, ifEmpty: false, allowPilot: true, today: '2026-05-01' })
  expect(result.skipped).toBe(false)
  expect((await clients.auth.getUserByEmail('admin@demo.dk')).customClaims).toMatchObject({ admin: true })
  expect((await clients.db.doc(SCHEMA_DOCUMENT).get()).get('pilot')).toBe(true)
})

test('pilot-admin makes an administrator with a generated strong password, once per e-mail', async () => {
  const env = {
    ...options,
    emulators: readEmulatorHosts(),
    publicHost: undefined,
    storagePublicHost: undefined,
    storagePublicOrigin: undefined,
  }
  const { uid, password } = await createPilotAdmin({ email: 'it@kommune.dk', firstName: 'Ida', lastName: 'Tech', env })
  expect(password).toMatch(/^[a-zA-Z2-9]{5}(-[a-zA-Z2-9]{5}){3}$/)
  const record = await clients.auth.getUser(uid)
  expect(record.customClaims).toEqual({ admin: true, userRole: 'admin' })
  expect((await clients.db.doc(`users/${uid}`).get()).get('userRole')).toBe('admin')
  await expect(createPilotAdmin({ email: 'it@kommune.dk', firstName: 'Ida', lastName: 'Tech', env })).rejects.toThrow(
    /already has an account/,
  )
  expect(new Set(Array.from({ length: 50 }, () => generatePassword())).size).toBe(50)
})

test('the real migrations are all known to the pilot tools (ids are the file names)', () => {
  for (const migration of MIGRATIONS) expect(migration.id).toMatch(/^\d{3}-[\w-]+$/)
})
