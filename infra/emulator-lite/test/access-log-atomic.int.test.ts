import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { freePort } from '../../stack/src/ports.ts'
import { SERVICE_ACCOUNT_FILE, signCustomToken } from '../src/index.ts'
import { auditVerify, startCliProcess } from './cli-process.ts'

// Issue 29, finding 2: a write stored without its access-log entry. Data and entries now commit in
// one SQLite transaction, so whatever a kill -9 leaves stored has its entry.

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
  const root = `projects/${PROJECT}/databases/(default)/documents`
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

    // What is stored: every note (a collection-group query as the owner) and every person file.
    const query = await fetch(`http://127.0.0.1:${adminPort}/v1/${root}:runQuery`, {
      method: 'POST',
      headers: { ...OWNER, 'content-type': 'application/json' },
      body: JSON.stringify({ structuredQuery: { from: [{ collectionId: 'notes', allDescendants: true }] } }),
    })
    const rows = (await query.json()) as { document?: { name: string } }[]
    const storedNotes = rows.flatMap((row) => (row.document ? [row.document.name] : []))
    const listing = (await (
      await fetch(`http://127.0.0.1:${adminPort}/v0/b/${BUCKET}/o?prefix=persons/`, { headers: OWNER })
    ).json()) as { items: { name: string }[] }
    const storedFiles = listing.items.map((item) => `projects/_/buckets/${BUCKET}/objects/${item.name}`)
    expect(storedNotes.length).toBeGreaterThan(ROUNDS * 100)
    expect(storedFiles.length).toBeGreaterThan(0)
    // Every acknowledged write is stored.
    const storedPaths = new Set([
      ...storedNotes.map((name) => name.slice(root.length + 1)),
      ...listing.items.map((item) => `object:${item.name}`),
    ])
    expect([...acknowledged].filter((path) => !storedPaths.has(path))).toEqual([])

    // Every stored write has its entry (a create naming it).
    const logged = new Set<string>()
    for (const personId of PERSONS)
      for (const entry of await entriesOf(adminPort, personId))
        if (entry.labels.operation === 'create') logged.add(entry.protoPayload.resourceName)
    expect([...storedNotes, ...storedFiles].filter((name) => !logged.has(name))).toEqual([])

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
