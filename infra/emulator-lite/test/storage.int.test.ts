import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  deleteObject,
  getBytes,
  getDownloadURL,
  getMetadata,
  list,
  listAll,
  ref,
  type StorageReference,
  updateMetadata,
  uploadBytes,
  uploadBytesResumable,
} from 'firebase/storage'
import { getDownloadURL as adminDownloadUrl } from 'firebase-admin/storage'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { connectConformanceTarget, type Sdks } from './sdk.ts'

let sdk: Sdks

beforeAll(async () => {
  sdk = await connectConformanceTarget()
})

afterAll(() => sdk.close())

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

test('a resumable upload of 600 KiB of random bytes goes in several chunks and reads back byte for byte', async () => {
  const payload = randomBytes(600 * 1024)
  const file = ref(sdk.storage, 'big/random.bin')
  const task = uploadBytesResumable(file, new Uint8Array(payload), { contentType: 'application/x-test' })
  const progress: number[] = []
  task.on('state_changed', (snapshot) => {
    progress.push(snapshot.bytesTransferred)
  })
  const done = await task
  // More than 256 KiB goes through the resumable protocol: at least one chunk before the final one.
  expect(progress.some((bytes) => bytes > 0 && bytes < payload.length)).toBe(true)
  expect(done.metadata).toMatchObject({ size: payload.length, contentType: 'application/x-test' })
  expect(done.metadata.md5Hash).toBe(createHash('md5').update(payload).digest('base64'))
  expect(Buffer.from(await getBytes(file)).equals(payload)).toBe(true)
  const [adminCopy] = await sdk.adminStorage.bucket().file('big/random.bin').download()
  expect(adminCopy.equals(payload)).toBe(true)
  // A ranged read (maxDownloadSizeBytes) returns the head of the same bytes.
  expect(Buffer.from(await getBytes(file, 1000)).equals(payload.subarray(0, 1000))).toBe(true)
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

test('list() with maxResults pages through every item and prefix exactly once until the token runs out', async () => {
  const names = [
    'paged/a.txt',
    'paged/b.txt',
    'paged/c d.txt',
    'paged/d/inner.txt',
    'paged/e.txt',
    'paged/f/x.txt',
    'paged/f/y.txt',
    'paged/g+h.txt',
    'paged/z\u00e9.txt',
    'paged/\u{1F600}.txt',
    'paged/\uFFFD.txt',
  ]
  for (const name of names) await uploadBytes(ref(sdk.storage, name), new TextEncoder().encode(name))
  const items: string[] = []
  const prefixes: string[] = []
  let pageToken: string | undefined
  let pages = 0
  do {
    const page = await list(ref(sdk.storage, 'paged'), { maxResults: 3, ...(pageToken ? { pageToken } : {}) })
    expect(page.items.length + page.prefixes.length).toBeLessThanOrEqual(3)
    items.push(...page.items.map((item: StorageReference) => item.fullPath))
    prefixes.push(...page.prefixes.map((prefix: StorageReference) => prefix.fullPath))
    pageToken = page.nextPageToken
    pages++
  } while (pageToken && pages < 20)
  // Items come back in UTF-8 byte order, as GCS lists them.
  const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))
  const expectedItems = names.filter((name) => !name.slice('paged/'.length).includes('/')).sort(byteOrder)
  expect(items).toEqual(expectedItems)
  expect(new Set(items).size).toBe(items.length)
  expect(prefixes).toEqual(['paged/d', 'paged/f'])
  expect(pages).toBeGreaterThanOrEqual(Math.ceil((expectedItems.length + 2) / 3))
  const all = await listAll(ref(sdk.storage, 'paged'))
  expect(all.items.map((item) => item.fullPath)).toEqual(expectedItems)
  // Every object is listed from the root as well, whatever characters its name uses.
  const [everything] = await sdk.adminStorage.bucket().getFiles({ prefix: 'paged/' })
  expect(everything.map((f) => f.name).sort()).toEqual([...names].sort())
})

test('admin getFiles pages with maxResults and pageToken, every file exactly once', async () => {
  const bucket = sdk.adminStorage.bucket()
  const names = Array.from({ length: 7 }, (_, i) => `getfiles/${i}.txt`).concat(['getfiles/sub/deep.txt'])
  for (const name of names) await bucket.file(name).save(name, { resumable: false })
  const seen: string[] = []
  type PageQuery = { prefix: string; maxResults: number; pageToken?: string; autoPaginate: boolean }
  let query: PageQuery | null = { prefix: 'getfiles/', maxResults: 3, autoPaginate: false }
  let pages = 0
  while (query && pages < 10) {
    // Without autoPaginate, getFiles answers [files, nextQuery (null on the last page), apiResponse].
    const [files, next] = (await bucket.getFiles(query)) as unknown as [{ name: string }[], PageQuery | null]
    expect(files.length).toBeLessThanOrEqual(3)
    seen.push(...files.map((file) => file.name))
    query = next
    pages++
  }
  expect(pages).toBe(3)
  expect(seen).toEqual([...names].sort())
  const [auto] = await bucket.getFiles({ prefix: 'getfiles/', maxResults: 2 })
  expect(auto.map((file) => file.name)).toEqual(seen.slice(0, 2))
})

test('admin bucket().upload(localFilePath) stores the file (multipart and resumable) with a type from its extension', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-lite-upload-'))
  try {
    const text = join(dir, 'notes.txt')
    writeFileSync(text, 'line one\nline two\n')
    const binary = join(dir, 'blob.bin')
    const payload = randomBytes(300 * 1024)
    writeFileSync(binary, payload)
    const bucket = sdk.adminStorage.bucket()
    const [uploaded] = await bucket.upload(text)
    expect(uploaded.name).toBe('notes.txt')
    await bucket.upload(binary, { destination: 'uploads/blob.bin', resumable: true })
    const [textMeta] = await bucket.file('notes.txt').getMetadata()
    expect(textMeta.contentType).toMatch(/^text\/plain/)
    expect(textMeta.size).toBe(String('line one\nline two\n'.length))
    expect((await bucket.file('notes.txt').download())[0].toString()).toBe('line one\nline two\n')
    expect((await bucket.file('uploads/blob.bin').download())[0].equals(payload)).toBe(true)
    expect(Buffer.from(await getBytes(ref(sdk.storage, 'uploads/blob.bin'))).equals(payload)).toBe(true)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
