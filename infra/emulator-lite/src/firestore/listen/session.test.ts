import type { IncomingMessage } from 'node:http'
import { expect, test } from 'vitest'
import type { ApiError } from '../../http/errors.ts'
import { Rulesets } from '../../security/rulesets.ts'
import { Store } from '../../store/store.ts'
import { createFirestoreService } from '../service.ts'
import { LISTEN_BUFFER_LIMIT, ListenSession } from './session.ts'

const DB = 'projects/demo-unit/databases/(default)'

function session(unread: () => number) {
  const store = new Store({ inMemory: true })
  const fs = createFirestoreService(store, new Rulesets({ firestore: null, storage: null }), null)
  const sent: Record<string, unknown>[] = []
  const failures: ApiError[] = []
  const listen = new ListenSession(fs, { privileged: true }, {} as IncomingMessage, {
    send: (response) => sent.push(response),
    fail: (error) => failures.push(error),
    buffered: unread,
  })
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
