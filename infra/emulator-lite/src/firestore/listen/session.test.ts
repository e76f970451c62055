import type { IncomingMessage } from 'node:http'
import { expect, test } from 'vitest'
import type { ApiError } from '../../http/errors.ts'
import { Rulesets } from '../../security/rulesets.ts'
import { Store } from '../../store/store.ts'
import { createFirestoreService } from '../service.ts'
import { LISTEN_BUFFER_LIMIT, ListenSession } from './session.ts'

const DB = 'projects/demo-unit/databases/(default)'

function session(unread: () => number, heartbeatMs?: number) {
  const store = new Store({ inMemory: true })
  const fs = createFirestoreService(store, new Rulesets({ firestore: null, storage: null }), null)
  const sent: Record<string, unknown>[] = []
  const failures: ApiError[] = []
  const listen = new ListenSession(
    fs,
    { privileged: true },
    {} as IncomingMessage,
    {
      send: (response) => sent.push(response),
      fail: (error) => failures.push(error),
      buffered: unread,
    },
    { heartbeatMs },
  )
  return { store, sent, failures, listen }
}

const addTarget = { database: DB, addTarget: { targetId: 2, documents: { documents: [`${DB}/documents/a/b`] } } }

test('a target is answered ADD, CURRENT with a token, then the global snapshot', async () => {
  const { store, sent, listen } = session(() => 0)
  listen.receive(addTarget)
  await expect.poll(() => sent.length).toBe(3)
  expect(sent.map((response) => (response.targetChange as { targetChangeType?: string }).targetChangeType)).toEqual([
    'ADD',
    'CURRENT',
    undefined,
  ])
  expect(sent[2]).toMatchObject({ targetChange: { readTime: expect.any(String), resumeToken: expect.any(String) } })
  listen.close()
  store.close()
})

test('a reader more than the limit behind is cut with RESOURCE_EXHAUSTED, not buffered without end', async () => {
  const { store, sent, failures, listen } = session(() => LISTEN_BUFFER_LIMIT + 1)
  listen.receive(addTarget)
  await expect.poll(() => failures.length).toBe(1)
  expect(sent).toEqual([{ targetChange: { targetChangeType: 'ADD', targetIds: [2] } }])
  expect(failures.map((error) => error.status)).toEqual(['RESOURCE_EXHAUSTED'])
  store.close()
})

test('after a commit only the difference leaves: a changed document, one deleted, one no longer matching', async () => {
  const { store, sent, listen } = session(() => 0)
  const put = (id: string, day: number, time: bigint) =>
    store.putDocument(
      'demo-unit',
      '(default)',
      { path: `notes/${id}`, fields: { day: { integerValue: String(day) } }, createTime: time, updateTime: time },
      '',
      'notes',
    )
  put('a', 1, 1n)
  put('b', 1, 2n)
  put('c', 1, 3n)
  listen.receive({
    database: DB,
    addTarget: {
      targetId: 4,
      query: {
        parent: `${DB}/documents`,
        structuredQuery: {
          from: [{ collectionId: 'notes' }],
          where: { fieldFilter: { field: { fieldPath: 'day' }, op: 'EQUAL', value: { integerValue: '1' } } },
        },
      },
    },
  })
  await expect.poll(() => sent.length).toBe(6)
  sent.length = 0
  put('a', 1, 10n)
  store.deleteDocument('demo-unit', '(default)', 'notes/b', 11n)
  put('c', 2, 12n)
  await expect.poll(() => sent.length).toBe(5)
  const kinds = sent.map((response) => Object.keys(response)[0])
  expect(kinds).toEqual(['documentDelete', 'documentRemove', 'documentChange', 'targetChange', 'targetChange'])
  expect(sent[0]).toMatchObject({ documentDelete: { document: `${DB}/documents/notes/b`, removedTargetIds: [4] } })
  expect(sent[1]).toMatchObject({ documentRemove: { document: `${DB}/documents/notes/c`, removedTargetIds: [4] } })
  expect(sent[2]).toMatchObject({ documentChange: { document: { name: `${DB}/documents/notes/a` }, targetIds: [4] } })
  expect(sent[3]).toMatchObject({ targetChange: { targetChangeType: 'CURRENT', targetIds: [4] } })
  // A commit that changes nothing the target matches sends nothing: the next message is the next change's.
  put('d', 3, 13n)
  await new Promise((resolve) => setImmediate(resolve))
  put('a', 1, 14n)
  await expect.poll(() => sent.length).toBe(8)
  expect(sent.slice(5).map((response) => Object.keys(response)[0])).toEqual([
    'documentChange',
    'targetChange',
    'targetChange',
  ])
  listen.close()
  store.close()
})

test("replacing a project's rules re-checks its open targets: one now denied is removed at once, another project's rules touch nothing", async () => {
  const rules = (allow: boolean) => ({
    rules: {
      files: [
        {
          content: `rules_version = '2';
service cloud.firestore { match /databases/{database}/documents { match /a/{id} { allow read: if ${allow}; } } }`,
        },
      ],
    },
  })
  const store = new Store({ inMemory: true })
  const rulesets = new Rulesets({ firestore: null, storage: null })
  rulesets.setFromRequest('cloud.firestore', rules(true), 'demo-unit')
  const fs = createFirestoreService(store, rulesets, null)
  const sent: Record<string, unknown>[] = []
  const listen = new ListenSession(fs, { privileged: false, auth: null }, {} as IncomingMessage, {
    send: (response) => sent.push(response),
    fail: () => {},
    buffered: () => 0,
  })
  listen.receive(addTarget)
  await expect.poll(() => sent.length).toBe(3)
  rulesets.setFromRequest('cloud.firestore', rules(false), 'demo-other')
  await new Promise((resolve) => setImmediate(resolve))
  expect(sent).toHaveLength(3)
  rulesets.setFromRequest('cloud.firestore', rules(false), 'demo-unit')
  await expect.poll(() => sent.length).toBe(4)
  expect(sent[3]).toMatchObject({ targetChange: { targetChangeType: 'REMOVE', targetIds: [2], cause: { code: 7 } } })
  listen.close()
  expect(rulesets.firestoreWatchers.size).toBe(0)
  store.close()
})

test('an idle stream with targets is sent a global snapshot with a new token every heartbeat; one without targets nothing', async () => {
  const { store, sent, listen } = session(() => 0, 200)
  listen.receive(addTarget)
  await expect.poll(() => sent.length).toBe(3)
  await expect.poll(() => sent.length, { timeout: 5_000 }).toBe(5)
  const globals = sent.slice(2) as { targetChange: { targetIds?: number[]; resumeToken: string; readTime: string } }[]
  for (const { targetChange } of globals) expect(targetChange.targetIds).toBeUndefined()
  // Each beat moves the read time on, and its token with it.
  expect(new Set(globals.map(({ targetChange }) => targetChange.resumeToken)).size).toBe(3)
  expect(globals.map(({ targetChange }) => targetChange.readTime)).toEqual(
    globals.map(({ targetChange }) => targetChange.readTime).sort(),
  )
  listen.receive({ removeTarget: 2 })
  await expect.poll(() => sent.at(-1)).toEqual({ targetChange: { targetChangeType: 'REMOVE', targetIds: [2] } })
  const quiet = sent.length
  await new Promise((resolve) => setTimeout(resolve, 600))
  expect(sent.length).toBe(quiet)
  listen.close()
  store.close()
})

test('a target under a reserved id is answered ADD and REMOVE with the cause, and the stream goes on', async () => {
  const { store, sent, failures, listen } = session(() => 0)
  listen.receive({
    database: DB,
    addTarget: {
      targetId: 3,
      query: { parent: `${DB}/documents/a/__badpath__`, structuredQuery: { from: [{ collectionId: 'b' }] } },
    },
  })
  listen.receive(addTarget)
  await expect.poll(() => sent.length).toBe(5)
  expect(sent.slice(0, 2)).toEqual([
    { targetChange: { targetChangeType: 'ADD', targetIds: [3] } },
    {
      targetChange: {
        targetChangeType: 'REMOVE',
        targetIds: [3],
        cause: { code: 3, message: 'Resource id "__badpath__" is invalid because it is reserved.' },
      },
    },
  ])
  expect(sent[3]).toMatchObject({ targetChange: { targetChangeType: 'CURRENT', targetIds: [2] } })
  expect(failures).toEqual([])
  listen.close()
  store.close()
})
