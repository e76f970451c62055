import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { addDays } from './lib/dates.ts'
import type { FirebaseClients } from './lib/firebase.ts'
import { clientsFor, updateTimes } from './testing/emulators.ts'

// `make seed` / `make start` as they run it: seed/src/seed.ts in a child process, configured by the
// environment the global setup exports (emulator hosts), with a project of its own.
const PROJECT = 'demo-seed-cli'
const SEED_CLI = fileURLToPath(new URL('./seed.ts', import.meta.url))
const SEED_DIR = fileURLToPath(new URL('..', import.meta.url))
const HOST_VARIABLES = ['FIREBASE_AUTH_EMULATOR_HOST', 'FIRESTORE_EMULATOR_HOST', 'FIREBASE_STORAGE_EMULATOR_HOST']
let clients: FirebaseClients

type Run = { code: number | null; stdout: string[]; stderr: string }

/** Runs the CLI with the given flags; `without` names environment variables to leave out. */
function runSeed(args: string[], without: string[] = []): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, FIREBASE_PROJECT_ID: PROJECT, GCLOUD_PROJECT: PROJECT }
  // the stack's own bucket must not be used: the seed defaults to <project>.appspot.com
  for (const name of ['FIREBASE_STORAGE_BUCKET', 'PUBLIC_HOST', ...without]) delete env[name]
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SEED_CLI, ...args], { cwd: SEED_DIR, env })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout: stdout.split('\n').filter(Boolean), stderr }))
  })
}

/** The oldest and newest registration day in the project. */
async function registrationDays(): Promise<[string | undefined, string | undefined]> {
  const snapshot = await clients.db.collectionGroup('registrations').get()
  const days = snapshot.docs.map((doc) => String(doc.get('day'))).sort()
  return [days[0], days.at(-1)]
}

/** A failed run: exit code 1 and exactly one line on stderr, `seed failed: …`, without a stack trace. */
function expectOneLineFailure(run: Run, message: RegExp): void {
  expect(run.code).toBe(1)
  const lines = run.stderr.split('\n').filter(Boolean)
  expect(lines).toEqual([expect.stringMatching(/^seed failed: /)])
  expect(lines[0]).toMatch(message)
  expect(run.stderr).not.toMatch(/^\s+at /m)
}

beforeAll(() => {
  clients = clientsFor(PROJECT)
})

afterAll(async () => {
  await clients.close()
})

test('--if-empty seeds an empty project as of --today, and a second --if-empty run skips it in one line', async () => {
  expect((await clients.db.collection('locations').limit(1).get()).empty).toBe(true)

  const first = await runSeed(['--if-empty', '--today=2026-01-15'])
  expect(first.stderr).toBe('')
  expect(first.code).toBe(0)
  expect(first.stdout[0]).toBe(
    `seed: project ${PROJECT}, bucket ${PROJECT}.appspot.com, today 2026-01-15 (Europe/Copenhagen)`,
  )
  expect(first.stdout).toHaveLength(1 + 8 + 1) // header, one line per step, total
  expect(first.stdout.at(-1)).toMatch(/^seed: done: (\d+) items, \1 written, 0 unchanged in \d+ ms$/)
  // dates follow --today: 90 days of registrations ending on that day
  expect(await registrationDays()).toEqual([addDays('2026-01-15', -89), '2026-01-15'])
  expect((await clients.db.collection('locations').get()).size).toBe(3)
  expect((await clients.bucket.getFiles())[0].length).toBe(41)

  const before = await updateTimes(clients)
  const second = await runSeed(['--if-empty'])
  expect(second).toEqual({
    code: 0,
    stdout: [`seed: project ${PROJECT} already has data; nothing to do (make seed ARGS=--reset reseeds it)`],
    stderr: '',
  })
  expect(await updateTimes(clients)).toEqual(before)
})

test('--reset --today wipes what was there and seeds the world as of the new day', async () => {
  await clients.db.doc('persons/extra-person').set({ firstName: 'Ekstra' })
  await clients.db.doc('persons/demo-borger01').update({ firstName: 'Ændret' })

  const run = await runSeed(['--reset', '--today=2026-02-01'])
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  expect(run.stdout[0]).toContain('today 2026-02-01')
  expect(run.stdout[1]).toMatch(/^seed: reset +wiped Firestore, Auth users and 41 storage files in \d+ ms$/)
  expect(run.stdout.at(-1)).toMatch(/^seed: done: (\d+) items, \1 written, 0 unchanged in \d+ ms$/)
  // shifted by 17 days, with nothing left over from the previous window
  expect(await registrationDays()).toEqual(['2025-11-04', '2026-02-01'])
  expect((await clients.db.doc('persons/extra-person').get()).exists).toBe(false)
  expect((await clients.db.doc('persons/demo-borger01').get()).get('firstName')).not.toBe('Ændret')
})

test('a bad flag or a bad --today exits 1 with one clear line and no stack trace', async () => {
  const [unknown, notADay, missingValue] = await Promise.all([
    runSeed(['--bogus']),
    runSeed(['--today=2026-02-30']),
    runSeed(['--today']),
  ])
  expectOneLineFailure(unknown, /Unknown option '--bogus'/)
  expectOneLineFailure(notADay, /^seed failed: --today must be a calendar day YYYY-MM-DD, not '2026-02-30'$/)
  expectOneLineFailure(missingValue, /'--today <value>' argument missing/)
  for (const run of [unknown, notADay, missingValue]) expect(run.stdout).toEqual([])
})

test('refuses to run without all three emulator hosts unless --allow-real-project (and --reset never does)', async () => {
  const before = await updateTimes(clients)
  const [noHosts, noStorage, allowed] = await Promise.all([
    runSeed([], HOST_VARIABLES),
    runSeed(['--if-empty'], ['FIREBASE_STORAGE_EMULATOR_HOST']),
    // past the first refusal with the explicit yes; --reset then refuses on its own, before any request
    runSeed(['--allow-real-project', '--reset'], HOST_VARIABLES),
  ])
  for (const run of [noHosts, noStorage]) {
    expectOneLineFailure(
      run,
      /^seed failed: refusing to seed demo accounts into a real project: set FIREBASE_AUTH_EMULATOR_HOST, FIRESTORE_EMULATOR_HOST and FIREBASE_STORAGE_EMULATOR_HOST, or pass --allow-real-project$/,
    )
    expect(run.stdout).toEqual([])
  }
  expectOneLineFailure(allowed, /^seed failed: refusing to reset: --reset only runs against emulators/)
  expect(allowed.stdout).toEqual([expect.stringMatching(`^seed: project ${PROJECT}, `)])
  expect(await updateTimes(clients)).toEqual(before)
})
