// Storage download tokens (issue 23): with storage.rules loaded, a Firebase download needs the
// object's token, privilege or the rules' consent, as in production; without rules everything is
// allowed, as in the official emulator (unless the authorisation hook decides).
import { mkdtempSync, writeFileSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deleteApp, initializeApp } from 'firebase/app'
import {
  connectStorageEmulator,
  getBytes,
  getDownloadURL,
  getStorage,
  getStream,
  ref,
  uploadBytes,
} from 'firebase/storage'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'
import { connectLite, type Sdks } from './sdk.ts'

let denying: EmulatorLite
let hooked: EmulatorLite
let open: EmulatorLite
let sdk: Sdks
let hookedSdk: Sdks
let openSdk: Sdks
const asked: { bucket: string; name: string; authorization?: string }[] = []

/** Rules that let anyone write and nobody read: downloads live on tokens and privilege alone. */
const WRITE_ONLY = `rules_version = '2';
service firebase.storage {
  match /b/{bucket}/o {
    match /{all=**} { allow write: if true; }
  }
}`

beforeAll(async () => {
  const rules = join(mkdtempSync(join(tmpdir(), 'gaps-storage-')), 'storage.rules')
  writeFileSync(rules, WRITE_ONLY)
  denying = await startEmulatorLite({ firestorePort: 0, storagePort: 0, inMemory: true, storageRules: rules })
  sdk = connectLite(denying)
  open = await startEmulatorLite({ firestorePort: 0, storagePort: 0, inMemory: true })
  openSdk = connectLite(open)
  hooked = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    inMemory: true,
    storageAuthorizeRead: async (req: IncomingMessage, bucket: string, name: string) => {
      asked.push({ bucket, name, authorization: req.headers.authorization })
      return name.startsWith('public/')
    },
  })
  hookedSdk = connectLite(hooked)
})

afterAll(async () => {
  await sdk.close()
  await hookedSdk.close()
  await openSdk.close()
  await denying.close()
  await hooked.close()
  await open.close()
})

test('without storage rules a download needs no token: getBytes, getStream and a missing file answer as the official emulator', async () => {
  const file = ref(openSdk.storage, 'open/bytes.bin')
  await uploadBytes(file, new Uint8Array([4, 5, 6]))
  expect([...new Uint8Array(await getBytes(file))]).toEqual([4, 5, 6])
  const chunks: Buffer[] = []
  for await (const chunk of getStream(file) as unknown as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk))
  expect([...Buffer.concat(chunks)]).toEqual([4, 5, 6])
  await expect(getBytes(ref(openSdk.storage, 'open/nothing-here'))).rejects.toMatchObject({
    code: 'storage/object-not-found',
  })
  // A plain URL without the token, as a browser would fetch it.
  const url = new URL(await getDownloadURL(file))
  url.searchParams.delete('token')
  expect([...new Uint8Array(await (await fetch(url)).arrayBuffer())]).toEqual([4, 5, 6])
})

test('a download URL works only with its token; without one or with a wrong one the answer is 403', async () => {
  const file = ref(sdk.storage, 'private/report.txt')
  await uploadBytes(file, new TextEncoder().encode('secret'))
  // The rules let nobody read metadata: the token comes from the GCS JSON API on the admin listener.
  const name = encodeURIComponent('private/report.txt')
  const gcs = await fetch(`http://127.0.0.1:${denying.adminPort}/storage/v1/b/${sdk.bucket}/o/${name}`)
  const token = ((await gcs.json()) as { metadata: Record<string, string> }).metadata.firebaseStorageDownloadTokens
  const url = new URL(`http://127.0.0.1:${denying.storagePort}/v0/b/${sdk.bucket}/o/${name}?alt=media&token=${token}`)
  expect(await (await fetch(url)).text()).toBe('secret')

  const wrong = new URL(url)
  wrong.searchParams.set('token', 'not-the-token')
  const missing = new URL(url)
  missing.searchParams.delete('token')
  for (const denied of [wrong, missing]) {
    const response = await fetch(denied)
    expect(response.status).toBe(403)
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(403)
  }
})

test('with rules, getBytes without a token is refused unless the caller is privileged (owner on the admin listener), and firebase-admin always reads', async () => {
  const file = ref(sdk.storage, 'private/bytes.bin')
  await uploadBytes(file, new Uint8Array([1, 2, 3]))
  await expect(getBytes(file)).rejects.toMatchObject({ code: 'storage/unauthorized' })

  // rules-unit-testing's rules-disabled context connects with mockUserToken 'owner': believed on the
  // admin listener, refused on the browser-facing one.
  const ownerApp = initializeApp({ projectId: sdk.projectId, storageBucket: sdk.bucket }, `owner-${sdk.projectId}`)
  const publicOwnerApp = initializeApp({ projectId: sdk.projectId, storageBucket: sdk.bucket }, `pub-${sdk.projectId}`)
  try {
    const owner = getStorage(ownerApp)
    connectStorageEmulator(owner, '127.0.0.1', denying.adminPort, { mockUserToken: 'owner' })
    expect([...new Uint8Array(await getBytes(ref(owner, 'private/bytes.bin')))]).toEqual([1, 2, 3])
    const publicOwner = getStorage(publicOwnerApp)
    connectStorageEmulator(publicOwner, '127.0.0.1', denying.storagePort, { mockUserToken: 'owner' })
    await expect(getBytes(ref(publicOwner, 'private/bytes.bin'))).rejects.toMatchObject({
      code: 'storage/unauthorized',
    })
  } finally {
    await deleteApp(ownerApp)
    await deleteApp(publicOwnerApp)
  }
  const [adminCopy] = await sdk.adminStorage.bucket().file('private/bytes.bin').download()
  expect([...adminCopy]).toEqual([1, 2, 3])
})

test('access is decided before existence, so a caller without access cannot tell which names exist', async () => {
  await expect(getBytes(ref(sdk.storage, 'private/nothing-here'))).rejects.toMatchObject({
    code: 'storage/unauthorized',
  })
  await expect(getBytes(ref(hookedSdk.storage, 'public/nothing-here'))).rejects.toMatchObject({
    code: 'storage/object-not-found',
  })
})

test('the authorisation hook decides downloads without a valid token, and sees the request', async () => {
  await uploadBytes(ref(hookedSdk.storage, 'public/logo.txt'), new TextEncoder().encode('logo'))
  await uploadBytes(ref(hookedSdk.storage, 'private/notes.txt'), new TextEncoder().encode('notes'))
  asked.length = 0
  expect(new TextDecoder().decode(await getBytes(ref(hookedSdk.storage, 'public/logo.txt')))).toBe('logo')
  await expect(getBytes(ref(hookedSdk.storage, 'private/notes.txt'))).rejects.toMatchObject({
    code: 'storage/unauthorized',
  })
  expect(asked).toEqual([
    { bucket: hookedSdk.bucket, name: 'public/logo.txt', authorization: undefined },
    { bucket: hookedSdk.bucket, name: 'private/notes.txt', authorization: undefined },
  ])
  // A valid token needs no hook.
  const url = await getDownloadURL(ref(hookedSdk.storage, 'private/notes.txt'))
  expect(await (await fetch(url)).text()).toBe('notes')
  expect(asked).toHaveLength(2)
})
