import { expect, test } from 'vitest'
import { ApiError } from '../../http/errors.ts'
import type { Caller } from '../../security/caller.ts'
import { Rulesets } from '../../security/rulesets.ts'
import { Store } from '../../store/store.ts'
import { callContext } from '../grpc/call.ts'
import { createFirestoreService } from '../service.ts'
import { WriteSession } from './session.ts'

const DB = 'projects/demo-unit/databases/(default)'
const owner: Caller = { privileged: true }

function session() {
  const store = new Store({ inMemory: true })
  const fs = createFirestoreService(store, new Rulesets({ firestore: null, storage: null }), null)
  const sent: Record<string, unknown>[] = []
  const ends: unknown[] = []
  const route = {
    name: 'firestore.test.Write',
    method: 'POST',
    path: '/Write',
    service: 'firestore',
    rules: 'firestore',
    project: () => 'demo-unit',
    handler: () => null,
  } as never
  const write = new WriteSession(
    fs,
    {
      callerFor: () => owner,
      contextFor: (caller) =>
        callContext(route, caller, { headers: {}, socket: {} } as never, 'client' as never, { deps: true } as never),
    },
    { send: (response) => sent.push(response), end: (error) => ends.push(error) },
  )
  return { store, sent, ends, write }
}

const note = (id: string) => ({ update: { name: `${DB}/documents/notes/${id}`, fields: {} } })

test.each([
  [{}, "'database' must be set on an initial write request."],
  [
    { database: DB, streamToken: 'MA==' },
    "Resuming streams is not supported, 'stream_token' must not be set on an initial write request.",
  ],
  [{ database: DB, writes: [note('a')] }, "'writes' must not be set on an initial write request."],
  [{ database: `${DB}/documents` }, `Invalid database name: ${DB}/documents`],
])('a handshake %j is refused: %s', async (first, message) => {
  const { store, sent, ends, write } = session()
  await write.receive(first)
  expect(sent).toEqual([])
  expect(ends).toEqual([new ApiError('INVALID_ARGUMENT', message)])
  expect(write.ended).toBe(true)
  store.close()
})

test('the handshake is answered with a stream id and the first token; the last request with a token, then the end', async () => {
  const { store, sent, ends, write } = session()
  await write.receive({ database: DB })
  await write.receive({ streamToken: 'MA==' })
  expect(sent).toEqual([{ streamId: expect.stringMatching(/^\d+$/), streamToken: 'MA==' }, { streamToken: 'MQ==' }])
  expect(ends).toEqual([undefined])
  store.close()
})

test('a request naming another database ends the stream, and nothing received after it is applied', async () => {
  const { store, sent, ends, write } = session()
  void write.receive({ database: DB })
  void write.receive({ database: 'projects/other/databases/(default)', writes: [note('a')] })
  await write.receive({ writes: [note('b')] })
  expect(sent).toHaveLength(1)
  expect((ends[0] as ApiError).status).toBe('INVALID_ARGUMENT')
  expect(store.getDocument('demo-unit', '(default)', 'notes/b')).toBeNull()
  store.close()
})

test('each batch is committed and acked with the next token, one result per write and the commit time', async () => {
  const { store, sent, ends, write } = session()
  await write.receive({ database: DB })
  await write.receive({ streamToken: 'MA==', writes: [note('a'), note('b')] })
  expect(sent[1]).toEqual({
    streamToken: 'MQ==',
    writeResults: [
      { updateTime: expect.any(String), transformResults: [] },
      { updateTime: expect.any(String), transformResults: [] },
    ],
    commitTime: expect.any(String),
  })
  expect(store.getDocument('demo-unit', '(default)', 'notes/b')).not.toBeNull()
  expect(ends).toEqual([])
  store.close()
})
