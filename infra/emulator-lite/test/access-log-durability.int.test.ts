import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { expect, test } from 'vitest'
import { SERVICE_ACCOUNT_FILE, signCustomToken } from '../src/index.ts'
import { auditVerify, startCliOnFreePorts, startCliProcess } from './cli-process.ts'

const PROJECT = 'demo-access-log'
const OWNER = { authorization: 'Bearer owner' }

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

test('every read that was answered is in the log after kill -9, and a hand edit of the SQLite file breaks make audit-verify', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'access-log-durability-'))
  const started = await startCliOnFreePorts(['firestore', 'storage', 'admin'], (ports) => [
    ...['--admin-port', String(ports.admin), '--firestore-port', String(ports.firestore)],
    ...['--storage-port', String(ports.storage), '--auth-port', '0', '--data', dataDir],
  ])
  const { args } = started
  const { firestore: port, admin: adminPort } = started.ports
  let child: ChildProcess = started.child
  const EMPLOYEE = await employeeToken(started.output(), dataDir)
  const docs = `http://127.0.0.1:${port}/v1/projects/${PROJECT}/databases/(default)/documents`
  // The owner credential is believed on the admin listener only.
  const adminDocs = `http://127.0.0.1:${adminPort}/v1/projects/${PROJECT}/databases/(default)/documents`
  try {
    const created = await fetch(`${adminDocs}:commit`, {
      method: 'POST',
      headers: { ...OWNER, 'content-type': 'application/json' },
      body: JSON.stringify({
        writes: [
          {
            update: {
              name: `projects/${PROJECT}/databases/(default)/documents/persons/p1`,
              fields: { firstName: { stringValue: 'Ada' } },
            },
          },
        ],
      }),
    })
    expect(created.status).toBe(200)
    // Reads as fast as the server answers them, until it is killed in the middle.
    let answered = 0
    let stopped: unknown
    const burst = (async () => {
      for (let i = 0; i < 100_000; i++) {
        const response = await fetch(`${docs}/persons/p1`, { headers: { authorization: EMPLOYEE } })
        if (response.status !== 200) throw new Error(`status ${response.status}`)
        await response.arrayBuffer()
        answered++
      }
    })().catch((error: unknown) => {
      stopped = error ?? 'stopped'
    })
    while (answered < 300 && stopped === undefined) await new Promise((resolve) => setTimeout(resolve, 5))
    child.kill('SIGKILL')
    await once(child, 'exit')
    await burst
    expect(stopped).toBeDefined()

    child = (await startCliProcess(args)).child
    const response = await fetch(
      `http://127.0.0.1:${adminPort}/emulator/v1/projects/${PROJECT}/accessLog?personId=p1&pageSize=1000`,
      { headers: OWNER },
    )
    const { entries, nextPageToken } = (await response.json()) as { entries: unknown[]; nextPageToken: string | null }
    let logged = entries.length
    let token = nextPageToken
    while (token !== null) {
      const page = (await (
        await fetch(
          `http://127.0.0.1:${adminPort}/emulator/v1/projects/${PROJECT}/accessLog?personId=p1&pageSize=1000&pageToken=${token}`,
          { headers: OWNER },
        )
      ).json()) as { entries: unknown[]; nextPageToken: string | null }
      logged += page.entries.length
      token = page.nextPageToken
    }
    // Every answered read is logged (the one in flight at the kill may be logged without its answer).
    expect(logged).toBeGreaterThanOrEqual(answered)
    expect(logged).toBeLessThanOrEqual(answered + 1)
    child.kill('SIGTERM')
    await once(child, 'exit')

    const intact = auditVerify(dataDir)
    expect(intact.stdout).toContain('the access log is intact')
    expect(intact.status).toBe(0)

    // Someone with access to the file lowers a count by hand (the log is in the store's file, ADR 0017).
    const db = new Database(join(dataDir, 'emulator-lite.sqlite'))
    db.prepare(
      `UPDATE access_log SET record = replace(record, '"role":"employee"', '"role":"admin"') WHERE seq = 42`,
    ).run()
    db.close()
    const broken = auditVerify(dataDir)
    expect(broken.stderr).toContain('the access log is BROKEN at entry 42')
    expect(broken.status).not.toBe(0)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
})
