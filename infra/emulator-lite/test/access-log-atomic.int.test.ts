import { type ChildProcess, execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@bosted/stack/ports'
import { expect, test } from 'vitest'
import { SERVICE_ACCOUNT_FILE, signCustomToken } from '../src/index.ts'
import { auditVerify, startCliProcess } from './cli-process.ts'

// Issue 29, finding 2: a write stored without its access-log entry. Data and entries now commit in
// one SQLite transaction, so whatever a kill -9 or a full disk leaves stored has its entry.

const PROJECT = 'demo-atomic'
const BUCKET = `${PROJECT}.appspot.com`
const OWNER = { authorization: 'Bearer owner' }
const PERSONS = ['p1', 'p2', 'p3']
const ROUNDS = 4

/** An employee's ID token from emulator-lite's Auth, signed in with a custom token of its service account. */
async function employeeToken(output: string, dataDir: string): Promise<string> {
  const authHost = /auth=http:\/\/(\S+)/.exec(output)?.[1]
  const serviceAccount = JSON.parse(readFileSync(join(dataDir, SERVICE_ACCOUNT_FILE), 'utf8'))
  const response = await fetch(
    `http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: signCustomToken(serviceAccount, 'emp', { userRole: 'user' }) }),
    },
  )
  const { idToken } = (await response.json()) as { idToken: string }
  return `Bearer ${idToken}`
}

type Entry = { protoPayload: { resourceName: string }; labels: { operation: string } }

/** Every entry of a person's log, through the owner endpoint (wherever the log is kept). */
async function entriesOf(adminPort: number, personId: string): Promise<Entry[]> {
  const all: Entry[] = []
  let token: string | null = null
  do {
    const url = `http://127.0.0.1:${adminPort}/emulator/v1/projects/${PROJECT}/accessLog?personId=${personId}&pageSize=1000${token === null ? '' : `&pageToken=${token}`}`
    const page = (await (await fetch(url, { headers: OWNER })).json()) as {
      entries: Entry[]
      nextPageToken: string | null
    }
    all.push(...page.entries)
    token = page.nextPageToken
  } while (token !== null)
  return all
}

const root = `projects/${PROJECT}/databases/(default)/documents`

/** What is stored (every note, every person file, through the owner) and which of it has no create entry. */
async function storedAndLogged(adminPort: number) {
  const query = await fetch(`http://127.0.0.1:${adminPort}/v1/${root}:runQuery`, {
    method: 'POST',
    headers: { ...OWNER, 'content-type': 'application/json' },
    body: JSON.stringify({ structuredQuery: { from: [{ collectionId: 'notes', allDescendants: true }] } }),
  })
  const rows = (await query.json()) as { document?: { name: string } }[]
  const storedNotes = rows.flatMap((row) => (row.document ? [row.document.name] : []))
  const listing = (await (
    await fetch(`http://127.0.0.1:${adminPort}/v0/b/${BUCKET}/o?prefix=persons/`, { headers: OWNER })
  ).json()) as { items?: { name: string }[] }
  const items = listing.items ?? []
  const storedFiles = items.map((item) => `projects/_/buckets/${BUCKET}/objects/${item.name}`)
  const storedPaths = new Set([
    ...storedNotes.map((name) => name.slice(root.length + 1)),
    ...items.map((item) => `object:${item.name}`),
  ])
  const logged = new Set<string>()
  for (const personId of PERSONS)
    for (const entry of await entriesOf(adminPort, personId))
      if (entry.labels.operation === 'create') logged.add(entry.protoPayload.resourceName)
  const unlogged = [...storedNotes, ...storedFiles].filter((name) => !logged.has(name))
  return { storedNotes, storedFiles, storedPaths, unlogged }
}

test('after kill -9 in the middle of a write storm, every stored note and person file has its access-log entry, and audit-verify passes', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'access-log-atomic-'))
  const port = await freePort()
  const storagePort = await freePort()
  const adminPort = await freePort()
  const args = [
    ...['--admin-port', String(adminPort), '--firestore-port', String(port)],
    ...['--storage-port', String(storagePort), '--auth-port', '0', '--data', dataDir],
  ]
  let started = await startCliProcess(args)
  let child: ChildProcess = started.child
  const EMPLOYEE = await employeeToken(started.output(), dataDir)
  const acknowledged = new Set<string>()
  try {
    for (let round = 0; round < ROUNDS; round++) {
      let stopped = false
      let acked = 0
      // Six clients writing notes (one create per commit) and one uploading person files, as fast as answered.
      const note = async (client: number) => {
        for (let i = 0; !stopped; i++) {
          const path = `persons/${PERSONS[(client + i) % PERSONS.length]}/notes/r${round}-c${client}-${i}`
          const response = await fetch(`http://127.0.0.1:${port}/v1/${root}:commit`, {
            method: 'POST',
            headers: { authorization: EMPLOYEE, 'content-type': 'application/json' },
            body: JSON.stringify({
              writes: [{ update: { name: `${root}/${path}`, fields: { text: { stringValue: `note ${i}` } } } }],
            }),
          })
          if (response.status !== 200) throw new Error(`commit answered ${response.status}`)
          await response.arrayBuffer()
          acknowledged.add(path)
          acked++
        }
      }
      const upload = async () => {
        for (let i = 0; !stopped; i++) {
          const name = `persons/p1/files/r${round}-${i}.bin`
          const response = await fetch(
            `http://127.0.0.1:${storagePort}/v0/b/${BUCKET}/o?name=${encodeURIComponent(name)}`,
            {
              method: 'POST',
              headers: { authorization: EMPLOYEE, 'content-type': 'application/octet-stream' },
              body: new Uint8Array(2000 + i),
            },
          )
          if (response.status !== 200) throw new Error(`upload answered ${response.status}`)
          await response.arrayBuffer()
          acknowledged.add(`object:${name}`)
        }
      }
      const storm = Promise.allSettled([...[0, 1, 2, 3, 4, 5].map(note), upload()])
      // A different moment each round.
      const target = 120 + round * 70
      while (acked < target && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 2))
      child.kill('SIGKILL')
      await once(child, 'exit')
      stopped = true
      const results = await storm
      // Every client was cut short by the kill.
      expect(results.every((result) => result.status === 'rejected')).toBe(true)
      started = await startCliProcess(args)
      child = started.child
    }

    const { storedNotes, storedFiles, storedPaths, unlogged } = await storedAndLogged(adminPort)
    expect(storedNotes.length).toBeGreaterThan(ROUNDS * 100)
    expect(storedFiles.length).toBeGreaterThan(0)
    // Every acknowledged write is stored, and every stored write has its entry (a create naming it).
    expect([...acknowledged].filter((path) => !storedPaths.has(path))).toEqual([])
    expect(unlogged).toEqual([])

    child.kill('SIGTERM')
    await once(child, 'exit')
    const verify = auditVerify(dataDir)
    expect(verify.stdout).toContain('the access log is intact')
    expect(verify.stdout).toMatch(/every one of \d+ documents and files written by clients has its entry/)
    expect(verify.status).toBe(0)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 240_000)

/** Whether this process may mount a small tmpfs (root), to fill a disk for real. */
function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false
  const probe = mkdtempSync(join(tmpdir(), 'tmpfs-probe-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' })
    execFileSync('umount', [probe], { stdio: 'ignore' })
    return true
  } catch {
    return false
  } finally {
    rmSync(probe, { recursive: true, force: true })
  }
}

test.skipIf(!canMountTmpfs())(
  'a disk that fills up in the middle of a write storm leaves no stored write without its entry (skipped when not root: it mounts a 5 MiB tmpfs)',
  async () => {
    const mountPoint = mkdtempSync(join(tmpdir(), 'access-log-full-'))
    const copy = mkdtempSync(join(tmpdir(), 'access-log-full-copy-'))
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=5m', 'tmpfs', mountPoint])
    const ports = async () => [
      ...['--admin-port', String(await freePort()), '--firestore-port', String(await freePort())],
      ...['--storage-port', String(await freePort()), '--auth-port', '0'],
    ]
    let child: ChildProcess | null = null
    try {
      const args = await ports()
      // A reserve of 1 MiB (ADR 0018) leaves the storm 4 MiB of the 5 to fill.
      const started = await startCliProcess([...args, '--data', mountPoint, '--disk-reserve-mib', '1'])
      child = started.child
      const EMPLOYEE = await employeeToken(started.output(), mountPoint)
      const port = Number(args[3])
      const storagePort = Number(args[5])
      let failures = 0
      let stored = 0
      const stop = () => failures >= 60 || child?.exitCode !== null
      const text = 'x'.repeat(1500)
      const note = async (client: number) => {
        for (let i = 0; !stop(); i++) {
          const path = `persons/${PERSONS[(client + i) % PERSONS.length]}/notes/full-c${client}-${i}`
          const response = await fetch(`http://127.0.0.1:${port}/v1/${root}:commit`, {
            method: 'POST',
            headers: { authorization: EMPLOYEE, 'content-type': 'application/json' },
            body: JSON.stringify({
              writes: [{ update: { name: `${root}/${path}`, fields: { text: { stringValue: text } } } }],
            }),
          })
          await response.arrayBuffer()
          if (response.status === 200) stored++
          else failures++
        }
      }
      const upload = async () => {
        for (let i = 0; !stop(); i++) {
          const response = await fetch(
            `http://127.0.0.1:${storagePort}/v0/b/${BUCKET}/o?name=${encodeURIComponent(`persons/p2/files/full-${i}.bin`)}`,
            {
              method: 'POST',
              headers: { authorization: EMPLOYEE, 'content-type': 'application/octet-stream' },
              body: new Uint8Array(20_000),
            },
          )
          await response.arrayBuffer()
          if (response.status !== 200) failures++
        }
      }
      await Promise.allSettled([...[0, 1, 2, 3].map(note), upload()])
      // The disk did fill up (writes failed), after many had been stored.
      expect(failures).toBeGreaterThanOrEqual(60)
      expect(stored).toBeGreaterThan(50)
      child.kill('SIGKILL')
      await once(child, 'exit')

      // What the full disk holds, read on a disk with room.
      cpSync(mountPoint, copy, { recursive: true })
      const again = await ports()
      child = (await startCliProcess([...again, '--data', copy])).child
      const { storedNotes, unlogged } = await storedAndLogged(Number(again[1]))
      expect(storedNotes.length).toBeGreaterThanOrEqual(stored)
      expect(unlogged).toEqual([])
      child.kill('SIGTERM')
      await once(child, 'exit')
      const verify = auditVerify(copy)
      expect(verify.stdout).toMatch(/every one of \d+ documents and files written by clients has its entry/)
      expect(verify.status).toBe(0)
    } finally {
      if (child !== null && child.exitCode === null) child.kill('SIGKILL')
      execFileSync('umount', ['-l', mountPoint])
      rmSync(mountPoint, { recursive: true, force: true })
      rmSync(copy, { recursive: true, force: true })
    }
  },
  240_000,
)
