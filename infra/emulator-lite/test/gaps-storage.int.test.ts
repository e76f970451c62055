// Storage download tokens (issue 23): a Firebase download needs the object's token, owner
// credentials or the authorisation hook's consent (storage.rules, once wired), as in production.
import type { IncomingMessage } from 'node:http'
import { deleteApp, initializeApp } from 'firebase/app'
import { connectStorageEmulator, getBytes, getDownloadURL, getStorage, ref, uploadBytes } from 'firebase/storage'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'
import { connectSdks, type Sdks } from './sdk.ts'

let denying: EmulatorLite
let hooked: EmulatorLite
let sdk: Sdks
let hookedSdk: Sdks
const asked: { bucket: string; name: string; authorization?: string }[] = []

beforeAll(async () => {
  denying = await startEmulatorLite({ firestorePort: 0, storagePort: 0, inMemory: true })
  sdk = connectSdks(`127.0.0.1:${denying.firestorePort}`, `127.0.0.1:${denying.storagePort}`)
  hooked = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    inMemory: true,
    storageAuthorizeRead: async (req: IncomingMessage, bucket: string, name: string) => {
      asked.push({ bucket, name, authorization: req.headers.authorization })
      return name.startsWith('public/')
    },
  })
  hookedSdk = connectSdks(`127.0.0.1:${hooked.firestorePort}`, `127.0.0.1:${hooked.storagePort}`)
})

afterAll(async () => {
  await sdk.close()
  await hookedSdk.close()
  await denying.close()
  await hooked.close()
})

test('a download URL works only with its token; without one or with a wrong one the answer is 403', async () => {
  const file = ref(sdk.storage, 'private/report.txt')
  await uploadBytes(file, new TextEncoder().encode('secret'))
  const url = new URL(await getDownloadURL(file))
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

test('getBytes without a token is refused unless the caller is the owner, and firebase-admin always reads', async () => {
  const file = ref(sdk.storage, 'private/bytes.bin')
  await uploadBytes(file, new Uint8Array([1, 2, 3]))
  await expect(getBytes(file)).rejects.toMatchObject({ code: 'storage/unauthorized' })

  // rules-unit-testing's rules-disabled context connects with mockUserToken 'owner'.
  const ownerApp = initializeApp({ projectId: sdk.projectId, storageBucket: sdk.bucket }, `owner-${sdk.projectId}`)
  try {
    const owner = getStorage(ownerApp)
    connectStorageEmulator(owner, '127.0.0.1', denying.storagePort, { mockUserToken: 'owner' })
    expect([...new Uint8Array(await getBytes(ref(owner, 'private/bytes.bin')))]).toEqual([1, 2, 3])
  } finally {
    await deleteApp(ownerApp)
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
