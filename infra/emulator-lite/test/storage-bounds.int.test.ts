// Issue 29 finding 5: resumable Storage uploads are authorised at their start, capped by the declared
// and an absolute size, spooled to a file (not memory) that every end of the session deletes, expired
// when idle, and bounded per caller (docs/decisions/0021-bounds.md). Spooling is shown by the file
// in <dataDir>/upload-spool, not by RSS; expiry by an injected clock, with no waiting.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deleteApp, initializeApp } from 'firebase/app'
import { connectStorageEmulator, getBytes, getStorage, ref, uploadBytesResumable } from 'firebase/storage'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'
import { signUnsigned } from './forged-token.ts'

const PROJECT = 'demo-bounds-storage'
const BUCKET = `${PROJECT}.appspot.com`
const MAX_BYTES = 1024 * 1024
const HOUR = 60 * 60_000
/** Users write their own images of at most 2 MiB; `open/` takes anything from anyone. */
const RULES = `rules_version = '2';
service firebase.storage {
  match /b/{bucket}/o {
    match /users/{uid}/{file} {
      allow read: if request.auth != null;
      allow write: if request.auth != null && request.auth.uid == uid
        && request.resource.size <= 2 * 1024 * 1024;
    }
    match /open/{file} { allow read, write: if true; }
  }
}`

let clock = Date.parse('2026-01-01T08:00:00Z')
let dir: string
let emulator: EmulatorLite
let spool: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'storage-bounds-'))
  writeFileSync(join(dir, 'storage.rules'), RULES)
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    dataDir: join(dir, 'data'),
    storageRules: join(dir, 'storage.rules'),
    acceptUnsignedTokens: true,
    storageUploads: { maxBytes: MAX_BYTES, now: () => clock },
  })
  spool = join(dir, 'data', 'upload-spool')
})

afterAll(async () => {
  await emulator.close()
  rmSync(dir, { recursive: true, force: true })
})

const as = (uid: string) => ({ authorization: `Firebase ${signUnsigned({ sub: uid, user_id: uid })}` })
const spooled = () => readdirSync(spool)
const base = () => `http://127.0.0.1:${emulator.storagePort}`

/** Starts a resumable upload as the web SDK does; `declared` goes in X-Goog-Upload-Header-Content-Length. */
async function start(name: string, declared: number | null, headers: Record<string, string> = {}) {
  const response = await fetch(`${base()}/v0/b/${BUCKET}/o?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: {
      'x-goog-upload-protocol': 'resumable',
      'x-goog-upload-command': 'start',
      'x-goog-upload-header-content-type': 'image/png',
      'content-type': 'application/json; charset=utf-8',
      ...(declared === null ? {} : { 'x-goog-upload-header-content-length': String(declared) }),
      ...headers,
    },
    body: JSON.stringify({ name, contentType: 'image/png' }),
  })
  return { status: response.status, url: response.headers.get('x-goog-upload-url'), text: await response.text() }
}

/** One request to a session: a chunk (`upload`, `upload, finalize`), `query` or `cancel`. */
async function send(
  url: string,
  command: string,
  body: Buffer = Buffer.alloc(0),
  offset = 0,
  headers: Record<string, string> = {},
) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'x-goog-upload-command': command, 'x-goog-upload-offset': String(offset), ...headers },
    body: new Uint8Array(body),
  })
  return {
    status: response.status,
    upload: response.headers.get('x-goog-upload-status'),
    received: response.headers.get('x-goog-upload-size-received'),
    text: await response.text(),
  }
}

test('a session the rules would refuse is refused at its start: nothing is received or spooled', async () => {
  // Finding 5's reproduction: an unauthenticated 500 MiB session.
  const anonymous = await start('users/alice/huge.bin', 500 * 1024 * 1024)
  expect(anonymous.status).toBe(403)
  expect(anonymous.url).toBeNull()
  // Signed in, on one's own path, but declaring more than the rules' 2 MiB.
  expect((await start('users/alice/big.png', 3 * 1024 * 1024, as('alice'))).status).toBe(403)
  // Someone else's path.
  expect((await start('users/bob/a.png', 1000, as('alice'))).status).toBe(403)
  // Without a declared size the rules see the largest allowed (1 MiB here): within 2 MiB, allowed.
  const undeclared = await start('users/alice/a.png', null, as('alice'))
  expect(undeclared.status).toBe(200)
  await send(undeclared.url as string, 'cancel')
  expect(spooled()).toEqual([])
  // The web SDK sees storage/unauthorized for a refused start.
  const app = initializeApp({ projectId: PROJECT, apiKey: 'k', storageBucket: BUCKET }, 'bounds-storage-web')
  const storage = getStorage(app)
  connectStorageEmulator(storage, '127.0.0.1', emulator.storagePort)
  const task = uploadBytesResumable(ref(storage, 'users/alice/sdk.png'), new Uint8Array(600 * 1024))
  await expect(task).rejects.toMatchObject({ code: 'storage/unauthorized' })
  await deleteApp(app)
  expect(spooled()).toEqual([])
})

test('chunks are spooled to a file of the session, which finalize deletes; the object is whole', async () => {
  const payload = Buffer.alloc(600 * 1024, 7)
  const session = await start('users/alice/spooled.png', payload.length, as('alice'))
  expect(session.status).toBe(200)
  const first = await send(session.url as string, 'upload', payload.subarray(0, 256 * 1024), 0, as('alice'))
  expect(first).toMatchObject({ status: 200, upload: 'active' })
  const [file] = spooled()
  expect(file).toBeDefined()
  expect(statSync(join(spool, file as string)).size).toBe(256 * 1024)
  expect((await send(session.url as string, 'query')).received).toBe(String(256 * 1024))
  const last = await send(
    session.url as string,
    'upload, finalize',
    payload.subarray(256 * 1024),
    256 * 1024,
    as('alice'),
  )
  expect(last).toMatchObject({ status: 200, upload: 'final' })
  expect(JSON.parse(last.text)).toMatchObject({ name: 'users/alice/spooled.png', size: String(payload.length) })
  expect(spooled()).toEqual([])
  const stored = await fetch(`${base()}/v0/b/${BUCKET}/o/${encodeURIComponent('users/alice/spooled.png')}?alt=media`, {
    headers: as('alice'),
  })
  expect(Buffer.from(await stored.arrayBuffer()).equals(payload)).toBe(true)
})

test('more than the declared size ends the session with 400; a short finalize is refused; both delete the spool', async () => {
  const over = await start('users/alice/over.png', 1000, as('alice'))
  expect((await send(over.url as string, 'upload', Buffer.alloc(600), 0)).status).toBe(200)
  const tooMuch = await send(over.url as string, 'upload', Buffer.alloc(401), 600)
  expect(tooMuch.status).toBe(400)
  expect(JSON.parse(tooMuch.text).error.message).toBe('Upload exceeds its declared size of 1000 bytes')
  expect((await send(over.url as string, 'query')).status).toBe(404)
  expect(spooled()).toEqual([])
  const short = await start('users/alice/short.png', 1000, as('alice'))
  const finalized = await send(short.url as string, 'upload, finalize', Buffer.alloc(999), 0, as('alice'))
  expect(finalized.status).toBe(400)
  expect(JSON.parse(finalized.text).error.message).toBe('Upload has 999 bytes; its start declared 1000')
  expect(spooled()).toEqual([])
})

test('the absolute cap: a larger declared size is refused at the start (413), an undeclared session stops at it', async () => {
  // open/ lets anyone write anything: only the cap stands.
  const declared = await start('open/big.bin', MAX_BYTES + 1)
  expect(declared.status).toBe(413)
  const undeclared = await start('open/stream.bin', null)
  expect(undeclared.status).toBe(200)
  expect((await send(undeclared.url as string, 'upload', Buffer.alloc(MAX_BYTES), 0)).status).toBe(200)
  const beyond = await send(undeclared.url as string, 'upload, finalize', Buffer.alloc(1), MAX_BYTES)
  expect(beyond.status).toBe(413)
  expect((await send(undeclared.url as string, 'query')).status).toBe(404)
  expect(spooled()).toEqual([])
  // Exactly the cap is fine.
  const full = await start('open/full.bin', MAX_BYTES)
  expect((await send(full.url as string, 'upload, finalize', Buffer.alloc(MAX_BYTES, 1), 0)).status).toBe(200)
  expect(spooled()).toEqual([])
})

test('the rules decide again at finalize: a refusal there deletes the spool', async () => {
  const session = await start('users/alice/refused.png', 2000, as('alice'))
  expect((await send(session.url as string, 'upload', Buffer.alloc(1000), 0, as('alice'))).status).toBe(200)
  // The last chunk comes without alice's credentials.
  const refused = await send(session.url as string, 'upload, finalize', Buffer.alloc(1000), 1000)
  expect(refused.status).toBe(403)
  expect(spooled()).toEqual([])
  expect((await send(session.url as string, 'query')).status).toBe(404)
})

test('cancel deletes the spool and ends the session', async () => {
  const session = await start('users/alice/cancelled.png', 5000, as('alice'))
  await send(session.url as string, 'upload', Buffer.alloc(4000), 0)
  expect(spooled()).toHaveLength(1)
  expect((await send(session.url as string, 'cancel')).upload).toBe('cancelled')
  expect(spooled()).toEqual([])
  expect((await send(session.url as string, 'query')).status).toBe(404)
})

test('a session idle for an hour is dropped with its spool; one in use is kept', async () => {
  const idle = await start('users/alice/idle.png', 5000, as('alice'))
  const busy = await start('users/alice/busy.png', 5000, as('alice'))
  await send(idle.url as string, 'upload', Buffer.alloc(1000), 0)
  await send(busy.url as string, 'upload', Buffer.alloc(1000), 0)
  expect(spooled()).toHaveLength(2)
  clock += HOUR - 60_000
  expect((await send(busy.url as string, 'upload', Buffer.alloc(1000), 1000)).status).toBe(200)
  clock += 60_000
  // The idle one has not been touched for an hour: gone, file and all.
  expect((await send(idle.url as string, 'query')).status).toBe(404)
  expect(spooled()).toHaveLength(1)
  const finished = await send(busy.url as string, 'upload, finalize', Buffer.alloc(3000), 2000, as('alice'))
  expect(finished.status).toBe(200)
  expect(spooled()).toEqual([])
})

test('a caller has at most 8 open sessions (429); others are not affected, and an ended one frees a place', async () => {
  const mine: string[] = []
  for (let index = 0; index < 8; index++) {
    const session = await start(`users/carl/${index}.png`, 100, as('carl'))
    expect(session.status).toBe(200)
    mine.push(session.url as string)
  }
  const ninth = await start('users/carl/8.png', 100, as('carl'))
  expect(ninth.status).toBe(429)
  expect(JSON.parse(ninth.text).error.status).toBe('RESOURCE_EXHAUSTED')
  expect((await start('users/dora/0.png', 100, as('dora'))).status).toBe(200)
  await send(mine[0] as string, 'cancel')
  expect((await start('users/carl/8.png', 100, as('carl'))).status).toBe(200)
  // Sessions do not outlive their hour, so the places come back by themselves too.
  clock += HOUR
  const after = await start('users/carl/9.png', 100, as('carl'))
  expect(after.status).toBe(200)
  expect(spooled()).toHaveLength(1)
  await send(after.url as string, 'cancel')
  expect(spooled()).toEqual([])
})

test('the web SDK uploads through a bounded session and reads the bytes back', async () => {
  const app = initializeApp({ projectId: PROJECT, apiKey: 'k', storageBucket: BUCKET }, 'bounds-storage-sdk')
  const storage = getStorage(app)
  connectStorageEmulator(storage, '127.0.0.1', emulator.storagePort, { mockUserToken: { user_id: 'erik' } })
  const payload = new Uint8Array(700 * 1024).map((_, index) => index % 251)
  const done = await uploadBytesResumable(ref(storage, 'users/erik/photo.png'), payload, { contentType: 'image/png' })
  expect(done.metadata.size).toBe(payload.length)
  expect(Buffer.from(await getBytes(ref(storage, 'users/erik/photo.png'))).equals(Buffer.from(payload))).toBe(true)
  expect(spooled()).toEqual([])
  await deleteApp(app)
})

test('a start empties the spool of a previous run; everyone together has at most maxOpen sessions', async () => {
  const data = join(dir, 'second')
  const stale = join(data, 'upload-spool', 'left-by-kill-9')
  mkdirSync(join(data, 'upload-spool'), { recursive: true })
  writeFileSync(stale, Buffer.alloc(1000))
  const second = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    dataDir: data,
    storageUploads: { maxOpen: 2 },
  })
  try {
    expect(readdirSync(join(data, 'upload-spool'))).toEqual([])
    // No rules here, and from one address: the 8 per caller would allow a third; maxOpen does not.
    const startAs = (name: string) =>
      fetch(`http://127.0.0.1:${second.storagePort}/v0/b/${BUCKET}/o?name=open%2F${name}`, {
        method: 'POST',
        headers: {
          'x-goog-upload-protocol': 'resumable',
          'x-goog-upload-command': 'start',
          'x-goog-upload-header-content-length': '10',
        },
        body: '{}',
      })
    expect((await startAs('a')).status).toBe(200)
    expect((await startAs('b')).status).toBe(200)
    expect((await startAs('c')).status).toBe(429)
  } finally {
    await second.close()
  }
  expect(readdirSync(join(data, 'upload-spool'))).toEqual([])
})
