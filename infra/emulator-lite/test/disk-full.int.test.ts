import type { ChildProcess } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFirebase } from '@bosted/api/lib/firebase'
import { checkDependencies } from '@bosted/api/routes/health/health.routes'
import { ACCESS_CLASSIFIER_MODULE } from '@bosted/domain/access-classifier'
import Database from 'better-sqlite3'
import { deleteApp, type FirebaseApp, initializeApp } from 'firebase/app'
import {
  type Auth,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  getAuth,
  signInWithCustomToken,
} from 'firebase/auth'
import {
  collection,
  connectFirestoreEmulator,
  doc,
  type Firestore,
  getDoc,
  getDocs,
  getFirestore,
  setDoc,
  setLogLevel,
} from 'firebase/firestore/lite'
import { type App, deleteApp as deleteAdminApp, initializeApp as initializeAdminApp } from 'firebase-admin/app'
import { getAuth as getAdminAuth } from 'firebase-admin/auth'
import { getStorage as getAdminStorage } from 'firebase-admin/storage'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SERVICE_ACCOUNT_FILE, signCustomToken } from '../src/index.ts'
import { startCliOnFreePorts, startCliProcess } from './cli-process.ts'

// The disk fills for real: a small tmpfs (root only) holds the data directory of an emulator-lite run
// as its own process, as `make start` runs it.
const REPO = join(import.meta.dirname, '../../..')
const PROJECT = 'demo-diskfull'
const BUCKET = `${PROJECT}.appspot.com`
const MIB = 1024 * 1024

function mountTmpfs(): { dir: string; reason: null } | { dir: null; reason: string } {
  if (process.getuid?.() !== 0) return { dir: null, reason: 'not root: cannot mount a small tmpfs' }
  const dir = mkdtempSync(join(tmpdir(), 'disk-full-'))
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', dir], { encoding: 'utf8' })
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true })
    return { dir: null, reason: `mount -t tmpfs failed: ${mounted.stderr.trim()}` }
  }
  return { dir, reason: null }
}

const mount = mountTmpfs()

/** Runs a script with tsx as its own process; its exit code and stderr. */
async function runScript(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const run = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  run.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const [code] = (await once(run, 'exit')) as [number | null]
  return { code, stderr }
}

/** Writes a file until the disk refuses more (ENOSPC), in ever smaller pieces; its size. */
function fillDisk(file: string): number {
  const fd = openSync(file, 'w')
  let size = 0
  try {
    for (let piece = MIB; piece >= 512; piece /= 2) {
      const buffer = Buffer.alloc(piece, 1)
      for (;;) {
        try {
          size += writeSync(fd, buffer)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
          break
        }
      }
    }
  } finally {
    closeSync(fd)
  }
  return size
}

describe.skipIf(mount.dir === null)(`a full disk (${mount.reason ?? 'tmpfs of 24 MiB'})`, () => {
  const root = mount.dir as string
  const dataDir = join(root, 'data')
  const filler = join(root, 'filler')
  let child: ChildProcess
  let output: () => string
  let cliArgs: string[]
  let hosts: { firestore: string; storage: string; auth: string; admin: string }
  let web: FirebaseApp
  let lite: Firestore
  let auth: Auth
  let admin: App

  const health = async () =>
    (await (await fetch(`http://${hosts.firestore}/health`)).json()) as {
      status: string
      disk: { state: string; reserveHeld: boolean }
    }
  const waitForDisk = async (state: 'ok' | 'full') => {
    while ((await health()).disk.state !== state) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const accessLog = async () => {
    const response = await fetch(
      `http://${hosts.admin}/emulator/v1/projects/${PROJECT}/accessLog?personId=p1&pageSize=1000`,
      { headers: { authorization: 'Bearer owner' } },
    )
    const body = (await response.json()) as { entries: { protoPayload: { methodName: string } }[] }
    expect(body).toHaveProperty('entries')
    return body.entries
  }
  const rejection = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: { code?: string; message?: string }) => error,
    )

  beforeAll(async () => {
    mkdirSync(dataDir)
    // A reserve that fits the small disk (the variable rather than --disk-reserve-mib, so the same
    // test runs against a build without the option and shows what went wrong before).
    process.env.EMULATOR_DISK_RESERVE_MIB = '2'
    const started = await startCliOnFreePorts(['firestore', 'storage', 'auth', 'admin'], (ports) => [
      ...['--firestore-port', String(ports.firestore), '--storage-port', String(ports.storage)],
      ...['--auth-port', String(ports.auth), '--admin-port', String(ports.admin)],
      ...['--project', PROJECT, '--data', dataDir],
    ])
    cliArgs = started.args
    child = started.child
    output = started.output
    hosts = {
      firestore: `127.0.0.1:${started.ports.firestore}`,
      storage: `127.0.0.1:${started.ports.storage}`,
      auth: `127.0.0.1:${started.ports.auth}`,
      admin: `127.0.0.1:${started.ports.admin}`,
    }
    process.env.FIREBASE_AUTH_EMULATOR_HOST = hosts.admin
    process.env.FIREBASE_STORAGE_EMULATOR_HOST = hosts.admin
    process.env.FIRESTORE_EMULATOR_HOST = hosts.admin
    web = initializeApp({ projectId: PROJECT, apiKey: 'fake-api-key', storageBucket: BUCKET }, 'disk-full-web')
    lite = getFirestore(web)
    // The SDK logs each refused commit with its whole request; the test checks the errors itself.
    setLogLevel('silent')
    connectFirestoreEmulator(lite, '127.0.0.1', started.ports.firestore)
    auth = getAuth(web)
    connectAuthEmulator(auth, `http://${hosts.auth}`, { disableWarnings: true })
    admin = initializeAdminApp({ projectId: PROJECT, storageBucket: BUCKET }, 'disk-full-admin')
  })

  afterAll(async () => {
    try {
      if (child && child.exitCode === null) {
        child.kill('SIGKILL')
        await once(child, 'exit')
      }
      if (web) await deleteApp(web)
      if (admin) await deleteAdminApp(admin)
    } finally {
      spawnSync('umount', [root])
      rmSync(root, { recursive: true, force: true })
    }
  })

  test('writes answer RESOURCE_EXHAUSTED, reads are answered and logged, and writes work again once space returns', async () => {
    const serviceAccount = JSON.parse(readFileSync(join(dataDir, SERVICE_ACCOUNT_FILE), 'utf8'))
    await signInWithCustomToken(auth, signCustomToken(serviceAccount, 'emp', { userRole: 'user' }))
    await setDoc(doc(lite, 'persons/p1'), { name: 'Anna' })
    await setDoc(doc(lite, 'persons/p1/notes/before'), { text: 'before' })

    // Fill the disk, then write notes until one is refused: the first refusal may come from SQLite.
    fillDisk(filler)
    const text = 'x'.repeat(20_000)
    let refused: { code?: string; message?: string } | null = null
    let refusedId = ''
    for (let i = 0; i < 2_000 && refused === null; i += 1) {
      refusedId = `n${i}`
      refused = await rejection(setDoc(doc(lite, `persons/p1/notes/${refusedId}`), { text }))
    }
    expect(refused?.code).toBe('resource-exhausted')
    expect(refused?.message).toContain('disk is full')
    // Nothing of the refused write is visible, in the store or in its in-memory mirror.
    expect((await getDoc(doc(lite, `persons/p1/notes/${refusedId}`))).exists()).toBe(false)

    await waitForDisk('full')
    expect(await health()).toMatchObject({ status: 'degraded', disk: { state: 'full', reserveHeld: false } })
    expect(output()).toContain('emulator-lite: disk full')

    // Every kind of write is refused at once, through the official SDKs, in each one's shape.
    expect(await rejection(setDoc(doc(lite, 'persons/p1/notes/late'), { text: 'late' }))).toMatchObject({
      code: 'resource-exhausted',
    })
    const created = await rejection(createUserWithEmailAndPassword(auth, 'new@example.com', 'secret123'))
    expect(created?.code).toBe('auth/quota-exceeded')
    const adminCreated = await rejection(getAdminAuth(admin).createUser({ uid: 'late' }))
    expect(adminCreated).toMatchObject({ code: 'auth/quota-exceeded' })
    expect(adminCreated?.message).toContain('RESOURCE_EXHAUSTED')
    const uploaded = await rejection(
      getAdminStorage(admin).bucket(BUCKET).file('persons/p1/avatar.png').save(Buffer.alloc(1000), {
        resumable: false,
      }),
    )
    expect(uploaded).toMatchObject({ code: 429 })
    const webUpload = await fetch(`http://${hosts.storage}/v0/b/${BUCKET}/o?name=persons%2Fp1%2Fa.png`, {
      method: 'POST',
      headers: { 'content-type': 'image/png', authorization: `Bearer ${await auth.currentUser?.getIdToken()}` },
      body: Buffer.alloc(1000),
    })
    expect(webUpload.status).toBe(429)
    expect(((await webUpload.json()) as { error: unknown }).error).toMatchObject({
      status: 'RESOURCE_EXHAUSTED',
      code: 429,
    })

    // Reads go on, each logged before it is answered; a token refresh and a new sign-in still work.
    const logged = (await accessLog()).length
    expect((await getDoc(doc(lite, 'persons/p1'))).data()).toEqual({ name: 'Anna' })
    expect((await getDocs(collection(lite, 'persons/p1/notes'))).size).toBeGreaterThan(0)
    expect((await accessLog()).length).toBe(logged + 2)
    await auth.currentUser?.getIdToken(true)
    await signInWithCustomToken(auth, signCustomToken(serviceAccount, 'emp2', { userRole: 'user' }))
    expect((await getDoc(doc(lite, 'persons/p1'))).exists()).toBe(true)

    // The api's health check (its probe write through the admin listener) sees the same state.
    const api = createFirebase({ projectId: PROJECT, useFirestoreEmulator: true })
    expect(await checkDependencies(api)).toEqual({ auth: 'ok', firestore: 'ok', firestoreWrites: 'resource_exhausted' })

    // batchWrite reports the refusal in the write's own status.
    const batch = await fetch(`http://${hosts.admin}/v1/projects/${PROJECT}/databases/(default)/documents:batchWrite`, {
      method: 'POST',
      headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
      body: JSON.stringify({
        writes: [{ update: { name: `projects/${PROJECT}/databases/(default)/documents/a/b`, fields: {} } }],
      }),
    })
    expect(((await batch.json()) as { status: unknown[] }).status).toEqual([
      { code: 8, message: expect.stringContaining('disk is full') },
    ])

    // A restart on the full disk comes up (the reserve makes room for SQLite's files) and serves reads.
    child.kill('SIGTERM')
    await once(child, 'exit')
    const restarted = await startCliProcess(cliArgs)
    child = restarted.child
    output = restarted.output
    expect((await health()).disk.state).toBe('full')
    expect((await getDoc(doc(lite, 'persons/p1'))).data()).toEqual({ name: 'Anna' })
    expect(await rejection(setDoc(doc(lite, 'persons/p1/notes/late'), { text: 'late' }))).toMatchObject({
      code: 'resource-exhausted',
    })

    // The seed and the migrations stop with a clear message instead of waiting on firebase-admin's retries.
    for (const [script, args] of [
      ['seed/src/seed.ts', ['--if-empty']],
      ['seed/src/migrate.ts', []],
    ] as const) {
      // Not spawnSync: a blocked event loop misses the server closing idle keep-alive sockets.
      const run = await runScript([join(REPO, script), ...args], {
        ...process.env,
        FIREBASE_PROJECT_ID: PROJECT,
        FIRESTORE_EMULATOR_HOST: hosts.admin,
        FIREBASE_AUTH_EMULATOR_HOST: hosts.admin,
        FIREBASE_STORAGE_EMULATOR_HOST: hosts.admin,
      })
      expect(run.code).toBe(1)
      expect(run.stderr).toContain('reports a full disk and refuses writes')
    }

    // Space returns: the state leaves by itself, the reserve is back, writes are stored again.
    rmSync(filler)
    await waitForDisk('ok')
    expect((await health()).disk.reserveHeld).toBe(true)
    expect(output()).toContain('emulator-lite: disk space is back')
    expect(await checkDependencies(api)).toEqual({ auth: 'ok', firestore: 'ok', firestoreWrites: 'ok' })
    await api.close()
    await setDoc(doc(lite, 'persons/p1/notes/after'), { text: 'after' })
    expect((await getDoc(doc(lite, 'persons/p1/notes/after'))).data()).toEqual({ text: 'after' })
    await getAdminAuth(admin).createUser({ uid: 'after' })
    await getAdminStorage(admin).bucket(BUCKET).file('persons/p1/avatar.png').save(Buffer.alloc(1000), {
      resumable: false,
    })
    expect(child.exitCode).toBeNull()

    child.kill('SIGTERM')
    await once(child, 'exit')
    // One file: the access log lives in the store's (ADR 0017).
    const db = new Database(join(dataDir, 'emulator-lite.sqlite'), { readonly: true })
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
    // What `make audit-verify` runs (make itself would first check the npm dependencies).
    const verified = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(REPO, 'infra/emulator-lite/src/audit/verify-cli.ts'),
        '--access-classifier',
        ACCESS_CLASSIFIER_MODULE,
        '--data',
        dataDir,
      ],
      { cwd: REPO, encoding: 'utf8' },
    )
    expect(verified.stdout).toContain('intact')
    expect(verified.status).toBe(0)
  })
})
