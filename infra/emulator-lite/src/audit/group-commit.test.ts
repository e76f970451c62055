import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bostedAccessClassifier } from '@bosted/domain/access-classifier'
import Database from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { type CoreDeps, createCoreApp, jsonResponse, type Route } from '../http/core.ts'
import { nodeListener } from '../http/listener.ts'
import { AccessLog } from './access-log.ts'
import { createAccessRecorder } from './recorder.ts'

// The group commit of read entries through the real core, a real access log on disk and real HTTP.
// The flush is held by the test (its `schedule`), so what a client sees before the entries are
// committed is observable; a second SQLite connection shows what is durable.
const dir = mkdtempSync(join(tmpdir(), 'group-commit-'))
const log = new AccessLog({ dataDir: dir })
const held: (() => void)[] = []
const onHeld = () => {}
const recorder = createAccessRecorder(log, {
  classifier: bostedAccessClassifier,
  schedule: (flush) => {
    held.push(flush)
    onHeld()
  },
})
const groupCommit = recorder.groupCommit
if (groupCommit === null) throw new Error('the recorder has a group commit when it has a log')
const db = { project: 'p', database: '(default)' }

const TABLE: Route[] = [
  {
    name: 'test.readPerson',
    method: 'GET',
    path: '/persons/:id',
    service: 'firestore',
    rules: 'firestore',
    handler: (c) => {
      c.set('rulesDecided', true)
      const caller = c.get('caller')
      const path = `persons/${c.req.param('id')}`
      c.get('access').add((r) => r.firestoreRead(db, caller, c.env.incoming, 'GetDocument', [{ path }]))
      return jsonResponse(c, 200, { name: path, secret: 'the care record' })
    },
  },
  {
    // As a Storage download: a body response, settled by the route middleware.
    name: 'test.readPicture',
    method: 'GET',
    path: '/pictures/:id',
    service: 'storage',
    rules: 'storage',
    handler: (c) => {
      c.set('rulesDecided', true)
      const caller = c.get('caller')
      const name = `persons/${c.req.param('id')}/avatar.svg`
      c.get('access').add((r) =>
        r.storage(caller, c.env.incoming, 'p', 'p.appspot.com', name, 'get', 'storage.objects.get'),
      )
      return c.body('<svg>the picture</svg>', 200, { 'content-type': 'image/svg+xml' })
    },
  },
  {
    name: 'test.writeNote',
    method: 'POST',
    path: '/persons/:id/notes',
    service: 'firestore',
    rules: 'firestore',
    handler: (c) => {
      c.env.incoming.resume()
      c.set('rulesDecided', true)
      const caller = c.get('caller')
      const path = `persons/${c.req.param('id')}/notes/n1`
      // As the write path does (ADR 0017): the write's entries appended at once, in its transaction.
      recorder.append(
        recorder
          .firestoreWriteEntries(db, caller, c.env.incoming, 'Commit', [{ path, operation: 'create' }])
          .map((entry) => entry.record),
      )
      return jsonResponse(c, 200, { written: path })
    },
  },
]

const deps: CoreDeps = {
  verifyIdToken: (token) =>
    token === 'staff.token.x' ? { uid: 'emp', token: { sub: 'emp', userRole: 'user' } } : null,
  adminSecret: 'elsec_test',
  recorder,
  rulesActive: () => true,
}

let server: Server
const url = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
const asStaff = { authorization: 'Bearer staff.token.x' }
/** What another connection sees: only committed entries. */
const durable = () => {
  const reader = new Database(join(dir, 'emulator-lite.sqlite'), { readonly: true })
  try {
    return reader.prepare('SELECT person_id AS personId, operation FROM access_log ORDER BY seq').all()
  } finally {
    reader.close()
  }
}
const flushHeld = () => {
  for (const flush of held.splice(0)) flush()
}
/** Resolves once `count` requests wait for the held flush. */
const queuedReach = (count: number) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (groupCommit.queued >= count) resolve()
      else setTimeout(check, 5)
    }
    check()
  })

beforeAll(async () => {
  server = createServer(nodeListener(createCoreApp('firestore', [TABLE], deps)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
})
afterEach(() => {
  flushHeld()
  log.db.exec('DROP TRIGGER IF EXISTS refuse_entries')
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  log.close()
  rmSync(dir, { recursive: true, force: true })
})

test('a read is answered only once its access-log entry is committed', async () => {
  const before = durable().length
  let answered = false
  const reply = fetch(url('/persons/p1'), { headers: asStaff }).then((response) => {
    answered = true
    return response
  })
  await queuedReach(1)
  // The request is done but for its entry: nothing may leave until the flush has committed it.
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(answered).toBe(false)
  expect(durable()).toHaveLength(before)
  flushHeld()
  const response = await reply
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ name: 'persons/p1', secret: 'the care record' })
  expect(durable().slice(before)).toEqual([{ personId: 'p1', operation: 'get' }])
})

test('a download (a body reply, not JSON) also waits for its entry', async () => {
  let answered = false
  const reply = fetch(url('/pictures/p2'), { headers: asStaff }).then((response) => {
    answered = true
    return response
  })
  await queuedReach(1)
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(answered).toBe(false)
  flushHeld()
  const response = await reply
  expect(await response.text()).toBe('<svg>the picture</svg>')
  expect(durable().at(-1)).toEqual({ personId: 'p2', operation: 'get' })
})

test('the reads that finish in one turn share one transaction, and each is answered after it', async () => {
  const before = { ...groupCommit.stats }
  const replies = Array.from({ length: 8 }, (_, i) => fetch(url(`/persons/q${i}`), { headers: asStaff }))
  await queuedReach(8)
  expect(held).toHaveLength(1)
  flushHeld()
  const responses = await Promise.all(replies)
  expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200))
  expect(groupCommit.stats.batches - before.batches).toBe(1)
  expect(groupCommit.stats.entries - before.entries).toBe(8)
  const persons = durable()
    .slice(-8)
    .map((row) => (row as { personId: string }).personId)
  expect(persons.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `q${i}`))
})

test('a failed flush answers every read of its batch with an error, never the data', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  const before = durable().length
  // A real SQLite failure inside the append's transaction (as a full disk or an I/O error would be).
  log.db.exec(`CREATE TRIGGER refuse_entries BEFORE INSERT ON access_log BEGIN SELECT RAISE(ABORT, 'no space'); END`)
  const replies = [fetch(url('/persons/f1'), { headers: asStaff }), fetch(url('/persons/f2'), { headers: asStaff })]
  await queuedReach(2)
  flushHeld()
  for (const response of await Promise.all(replies)) {
    expect(response.status).toBe(500)
    const text = await response.text()
    expect(text).not.toContain('the care record')
    expect(JSON.parse(text)).toMatchObject({ error: { status: 'INTERNAL' } })
  }
  expect(durable()).toHaveLength(before)
  logged.mockRestore()
  // The chain's end did not move: the next read is logged and answered.
  log.db.exec('DROP TRIGGER refuse_entries')
  const next = fetch(url('/persons/f3'), { headers: asStaff })
  await queuedReach(1)
  flushHeld()
  expect((await next).status).toBe(200)
  expect(log.verify().intact).toBe(true)
})

test("a write's entry is appended at once, not held for a group commit", async () => {
  const before = durable().length
  const response = await fetch(url('/persons/p1/notes'), { method: 'POST', headers: asStaff, body: '{}' })
  expect(response.status).toBe(200)
  expect(held).toHaveLength(0)
  expect(durable().slice(before)).toEqual([{ personId: 'p1', operation: 'create' }])
})

test('a privileged read is not logged and not held', async () => {
  const response = await fetch(url('/persons/p1'), { headers: { authorization: 'Bearer elsec_test' } })
  expect(response.status).toBe(200)
  expect(held).toHaveLength(0)
})
