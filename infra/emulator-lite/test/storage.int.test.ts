import {
  deleteObject,
  getBytes,
  getDownloadURL,
  getMetadata,
  list,
  listAll,
  ref,
  updateMetadata,
  uploadBytes,
  uploadBytesResumable,
} from 'firebase/storage'
import { getDownloadURL as adminDownloadUrl } from 'firebase-admin/storage'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'
import { connectSdks, type Sdks } from './sdk.ts'

let emulator: EmulatorLite | null = null
let sdk: Sdks

beforeAll(async () => {
  if (process.env.EMULATOR_LITE_TARGET === 'external') {
    sdk = connectSdks(
      process.env.FIRESTORE_EMULATOR_HOST as string,
      process.env.FIREBASE_STORAGE_EMULATOR_HOST as string,
    )
    return
  }
  emulator = await startEmulatorLite({ firestorePort: 0, storagePort: 0, inMemory: true })
  sdk = connectSdks(`127.0.0.1:${emulator.firestorePort}`, `127.0.0.1:${emulator.storagePort}`)
})

afterAll(async () => {
  await sdk.close()
  await emulator?.close()
})

test('web SDK uploads, reads metadata, downloads by URL, updates metadata and deletes', async () => {
  const file = ref(sdk.storage, 'users/alice/a b+é.txt')
  const uploaded = await uploadBytes(file, new TextEncoder().encode('hello'), {
    contentType: 'text/plain',
    customMetadata: { owner: 'alice' },
    cacheControl: 'no-cache',
  })
  expect(uploaded.metadata).toMatchObject({ fullPath: 'users/alice/a b+é.txt', size: 5, contentType: 'text/plain' })
  expect(uploaded.metadata.customMetadata).toEqual({ owner: 'alice' })
  const url = await getDownloadURL(file)
  const response = await fetch(url)
  expect(await response.text()).toBe('hello')
  expect(new TextDecoder().decode(await getBytes(file))).toBe('hello')
  const updated = await updateMetadata(file, {
    contentType: 'text/markdown',
    customMetadata: { owner: null as never, x: 'y' },
  })
  expect(updated.contentType).toBe('text/markdown')
  expect(updated.customMetadata).toEqual({ x: 'y' })
  expect((await getMetadata(file)).metageneration).toBe('2')
  await deleteObject(file)
  await expect(getMetadata(file)).rejects.toMatchObject({ code: 'storage/object-not-found' })
})

test('resumable uploads over 256 KiB arrive whole', async () => {
  const big = new Uint8Array(600 * 1024).map((_, i) => i % 251)
  const file = ref(sdk.storage, 'big/blob.bin')
  await uploadBytesResumable(file, big)
  const bytes = new Uint8Array(await getBytes(file))
  expect(bytes.length).toBe(big.length)
  expect(bytes[1234]).toBe(big[1234])
})

test('listAll and paged list return prefixes and items', async () => {
  for (const name of ['dir/a.txt', 'dir/b.txt', 'dir/sub/c.txt', 'other/d.txt']) {
    await uploadBytes(ref(sdk.storage, name), new Uint8Array([1]))
  }
  const all = await listAll(ref(sdk.storage, 'dir'))
  expect(all.items.map((item) => item.fullPath)).toEqual(['dir/a.txt', 'dir/b.txt'])
  expect(all.prefixes.map((prefix) => prefix.fullPath)).toEqual(['dir/sub'])
  const page = await list(ref(sdk.storage, 'dir'), { maxResults: 1 })
  expect(page.items.length + page.prefixes.length).toBe(1)
  expect(page.nextPageToken).toBeDefined()
})

test('admin storage saves (resumable and multipart), downloads, lists and deletes; tokens reach getDownloadURL', async () => {
  const bucket = sdk.adminStorage.bucket()
  const file = bucket.file('seed/t.txt')
  await file.save('hello from file\n', {
    contentType: 'text/plain',
    metadata: { metadata: { firebaseStorageDownloadTokens: 'tok-123' } },
  })
  await bucket.file('seed/u.txt').save('multipart', { resumable: false, contentType: 'text/plain' })
  const [data] = await file.download()
  expect(data.toString()).toBe('hello from file\n')
  const [metadata] = await file.getMetadata()
  expect(metadata.crc32c).toBe('tvCYbw==')
  const url = await adminDownloadUrl(file)
  expect(url).toContain('token=tok-123')
  expect(await (await fetch(url)).text()).toBe('hello from file\n')
  const [files] = await bucket.getFiles({ prefix: 'seed/' })
  expect(files.map((f) => f.name)).toEqual(['seed/t.txt', 'seed/u.txt'])
  await file.delete()
  expect((await file.exists())[0]).toBe(false)
})
