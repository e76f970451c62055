import { randomBytes } from 'node:crypto'
import {
  collection,
  collectionGroup,
  connectFirestoreEmulator,
  doc,
  type Firestore,
  getDoc,
  getDocs,
  getFirestore,
  query,
  setDoc,
  where,
} from 'firebase/firestore/lite'
import { getBytes, getMetadata, listAll, ref, uploadBytes } from 'firebase/storage'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'
import { connectLite, type Sdks } from './sdk.ts'

// emulator-lite specifics (not parity tests): one server holding several projects and buckets,
// its reset endpoints, health, CORS and body limit.

let emulator: EmulatorLite
let one: Sdks
let two: Sdks
const firestoreUrl = () => `http://127.0.0.1:${emulator.firestorePort}`
const storageUrl = () => `http://127.0.0.1:${emulator.storagePort}`
/** The privileged listener: resets and firebase-admin's calls go there. */
const adminUrl = () => `http://127.0.0.1:${emulator.adminPort}`

beforeAll(async () => {
  // No rules: everything is allowed, as in the official emulators; these tests are about the server.
  emulator = await startEmulatorLite({ firestorePort: 0, storagePort: 0, inMemory: true })
  one = connectLite(emulator)
  two = connectLite(emulator)
})

afterAll(async () => {
  await one.close()
  await two.close()
  await emulator.close()
})

let second: Firestore | undefined
/** Project one's database `second`, connected once. */
function namedDatabase(): Firestore {
  if (!second) {
    second = getFirestore(one.lite.app, 'second')
    connectFirestoreEmulator(second, '127.0.0.1', emulator.firestorePort)
  }
  return second
}
const bytesOf = async (sdk: Sdks, name: string) => Buffer.from(await getBytes(ref(sdk.storage, name))).toString()
const clearFirestore = (projectId: string) =>
  fetch(`${adminUrl()}/emulator/v1/projects/${projectId}/databases/(default)/documents`, { method: 'DELETE' })

describe('several projects and buckets on one server', () => {
  test('the same document path in two projects holds different data, and queries stay in their project', async () => {
    await setDoc(doc(one.lite, 'shared/doc'), { owner: 'one', n: 1 })
    await two.admin.doc('shared/doc').set({ owner: 'two', n: 2 })
    await setDoc(doc(one.lite, 'shared/doc/posts/p'), { n: 1 })
    await two.admin.doc('other/x').set({ n: 2 })
    expect((await getDoc(doc(one.lite, 'shared/doc'))).data()).toEqual({ owner: 'one', n: 1 })
    expect((await getDoc(doc(two.lite, 'shared/doc'))).data()).toEqual({ owner: 'two', n: 2 })
    expect((await one.admin.doc('shared/doc').get()).data()).toEqual({ owner: 'one', n: 1 })
    expect((await getDocs(query(collection(one.lite, 'shared'), where('n', '>', 0)))).size).toBe(1)
    expect((await getDocs(collectionGroup(two.lite, 'posts'))).size).toBe(0)
    expect((await one.admin.listCollections()).map((c) => c.id)).toEqual(['shared'])
    expect((await two.admin.listCollections()).map((c) => c.id)).toEqual(['other', 'shared'])
    // A named database of the same project is kept apart too.
    const named = namedDatabase()
    await setDoc(doc(named, 'shared/doc'), { owner: 'one/second' })
    expect((await getDoc(doc(named, 'shared/doc'))).data()).toEqual({ owner: 'one/second' })
    expect((await getDoc(doc(one.lite, 'shared/doc'))).data()).toEqual({ owner: 'one', n: 1 })
  })

  test('the same object name in two buckets holds different bytes and metadata', async () => {
    await uploadBytes(ref(one.storage, 'same/name.txt'), new TextEncoder().encode('bucket one'), {
      customMetadata: { owner: 'one' },
    })
    await two.adminStorage.bucket().file('same/name.txt').save('bucket two, longer', { resumable: false })
    expect(await bytesOf(one, 'same/name.txt')).toBe('bucket one')
    expect(await bytesOf(two, 'same/name.txt')).toBe('bucket two, longer')
    expect((await getMetadata(ref(one.storage, 'same/name.txt'))).customMetadata).toEqual({ owner: 'one' })
    expect((await getMetadata(ref(two.storage, 'same/name.txt'))).size).toBe(18)
    await uploadBytes(ref(one.storage, 'only-one.txt'), new Uint8Array([1]))
    expect((await listAll(ref(two.storage))).items.map((item) => item.fullPath)).toEqual([])
    expect((await listAll(ref(one.storage))).items.map((item) => item.fullPath)).toEqual(['only-one.txt'])
  })

  test('DELETE /emulator/v1/…/documents clears one project and leaves the other untouched', async () => {
    await setDoc(doc(one.lite, 'clear/a'), { v: 1 })
    await setDoc(doc(one.lite, 'clear/a/deep/b'), { v: 2 })
    await two.admin.doc('clear/a').set({ v: 3 })
    const named = namedDatabase()
    await setDoc(doc(named, 'clear/a'), { v: 5 })
    const response = await clearFirestore(one.projectId)
    expect(response.status).toBe(200)
    expect((await getDoc(doc(one.lite, 'clear/a'))).exists()).toBe(false)
    expect((await getDoc(doc(one.lite, 'clear/a/deep/b'))).exists()).toBe(false)
    expect(await one.admin.listCollections()).toEqual([])
    expect((await getDocs(collectionGroup(one.lite, 'deep'))).size).toBe(0)
    // The other project, and the cleared project's named database, keep everything.
    expect((await two.admin.doc('clear/a').get()).data()).toEqual({ v: 3 })
    expect((await getDocs(collection(two.lite, 'clear'))).docs.map((d) => d.id)).toEqual(['a'])
    expect((await getDoc(doc(named, 'clear/a'))).data()).toEqual({ v: 5 })
    // The cleared project works as before.
    await setDoc(doc(one.lite, 'clear/a'), { v: 4 })
    expect((await getDoc(doc(one.lite, 'clear/a'))).data()).toEqual({ v: 4 })
  })

  test('POST /internal/reset empties every bucket (as the official emulator does) and leaves Firestore alone', async () => {
    await uploadBytes(ref(one.storage, 'reset/a.txt'), new Uint8Array([1]))
    await uploadBytes(ref(two.storage, 'reset/b.txt'), new Uint8Array([2]))
    await setDoc(doc(one.lite, 'kept/doc'), { v: 1 })
    const response = await fetch(`${adminUrl()}/internal/reset`, { method: 'POST' })
    expect(response.status).toBe(200)
    for (const sdk of [one, two]) {
      expect((await listAll(ref(sdk.storage))).items).toEqual([])
      expect((await sdk.adminStorage.bucket().getFiles())[0]).toEqual([])
    }
    await expect(getBytes(ref(one.storage, 'reset/a.txt'))).rejects.toMatchObject({
      code: 'storage/object-not-found',
    })
    expect((await getDoc(doc(one.lite, 'kept/doc'))).data()).toEqual({ v: 1 })
    await uploadBytes(ref(two.storage, 'after-reset.txt'), new TextEncoder().encode('fresh'))
    expect(await bytesOf(two, 'after-reset.txt')).toBe('fresh')
  })
})

describe('health and CORS', () => {
  test('GET /health answers on both ports, GET / answers Ok on the Firestore port', async () => {
    for (const base of [firestoreUrl(), storageUrl()]) {
      const response = await fetch(`${base}/health`)
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ status: 'ok' })
    }
    const root = await fetch(`${firestoreUrl()}/`)
    expect(await root.text()).toBe('Ok')
  })

  const origin = 'http://localhost:5173'

  test('a browser preflight is answered with the origin, the method and every requested header on both ports', async () => {
    const preflights = [
      {
        url: `${firestoreUrl()}/v1/projects/${one.projectId}/databases/(default)/documents:runQuery`,
        method: 'POST',
        headers: 'authorization,content-type,google-cloud-resource-prefix,x-goog-api-client,x-goog-request-params',
      },
      {
        url: `${storageUrl()}/v0/b/${one.bucket}/o?name=x`,
        method: 'POST',
        headers: 'authorization,x-firebase-storage-version,x-goog-upload-protocol,x-goog-upload-command',
      },
      { url: `${storageUrl()}/v0/b/${one.bucket}/o/x`, method: 'PATCH', headers: 'authorization,content-type' },
      { url: `${storageUrl()}/v0/b/${one.bucket}/o/x`, method: 'DELETE', headers: 'authorization' },
    ]
    for (const preflight of preflights) {
      const response = await fetch(preflight.url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': preflight.method,
          'access-control-request-headers': preflight.headers,
        },
      })
      expect(response.status).toBeGreaterThanOrEqual(200)
      expect(response.status).toBeLessThan(300)
      expect(response.headers.get('access-control-allow-origin')).toBe(origin)
      const methods = (response.headers.get('access-control-allow-methods') ?? '').split(/\s*,\s*/)
      expect(methods).toContain(preflight.method)
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/)
      for (const header of preflight.headers.split(',')) expect(allowed).toContain(header)
    }
  })

  test('actual responses, errors included, carry the origin; Storage exposes the resumable upload headers', async () => {
    const read = await fetch(`${firestoreUrl()}/v1/projects/${one.projectId}/databases/(default)/documents:batchGet`, {
      method: 'POST',
      headers: { origin, 'content-type': 'text/plain' },
      body: JSON.stringify({ documents: [`projects/${one.projectId}/databases/(default)/documents/kept/doc`] }),
    })
    expect(read.status).toBe(200)
    expect(read.headers.get('access-control-allow-origin')).toBe(origin)
    const missing = await fetch(`${storageUrl()}/v0/b/${one.bucket}/o/nothing-here`, { headers: { origin } })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('access-control-allow-origin')).toBe(origin)
    const start = await fetch(`${storageUrl()}/v0/b/${one.bucket}/o?name=cors.bin`, {
      method: 'POST',
      headers: {
        origin,
        'x-goog-upload-protocol': 'resumable',
        'x-goog-upload-command': 'start',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'cors.bin' }),
    })
    expect(start.status).toBe(200)
    expect(start.headers.get('access-control-allow-origin')).toBe(origin)
    const exposed = (start.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/)
    for (const header of ['x-goog-upload-url', 'x-goog-upload-status', 'x-goog-upload-size-received']) {
      expect(exposed).toContain(header)
    }
  })
})

describe('limits and paging', () => {
  const tooBig = 16 * 1024 * 1024 + 1

  test('a Storage body over 16 MiB gets 413 in Google error shape, declared or streamed, and stores nothing', async () => {
    const declared = await fetch(`${storageUrl()}/v0/b/${one.bucket}/o?name=huge.bin`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(tooBig, 1),
    })
    expect(declared.status).toBe(413)
    expect(await declared.json()).toMatchObject({ error: { code: 413, message: expect.stringMatching(/\S/) } })
    // Chunked, without content-length: the limit is enforced while reading.
    const chunk = randomBytes(1024 * 1024)
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= tooBig) return controller.close()
        controller.enqueue(chunk)
        sent += chunk.length
      },
    })
    const streamed = await fetch(`${adminUrl()}/upload/storage/v1/b/${one.bucket}/o?uploadType=media&name=huge2.bin`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(streamed.status).toBe(413)
    expect(await streamed.json()).toMatchObject({ error: { code: 413 } })
    for (const name of ['huge.bin', 'huge2.bin']) {
      expect((await one.adminStorage.bucket().file(name).exists())[0]).toBe(false)
    }
    // The server keeps serving.
    await uploadBytes(ref(one.storage, 'after-413.txt'), new TextEncoder().encode('ok'))
    expect(await bytesOf(one, 'after-413.txt')).toBe('ok')
  })

  test('a Storage body of exactly 16 MiB is stored whole, and a Range download returns its slice', async () => {
    const data = randomBytes(16 * 1024 * 1024)
    const upload = await fetch(`${storageUrl()}/v0/b/${one.bucket}/o?name=exactly-16.bin`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: data,
    })
    expect(upload.status).toBe(200)
    expect(((await upload.json()) as { size: string }).size).toBe(String(data.length))
    const media = `${storageUrl()}/v0/b/${one.bucket}/o/exactly-16.bin?alt=media`
    const whole = Buffer.from(await (await fetch(media)).arrayBuffer())
    expect(whole.equals(data)).toBe(true)
    const ranged = await fetch(media, { headers: { range: 'bytes=1000-1999' } })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('content-range')).toBe(`bytes 1000-1999/${data.length}`)
    expect(Buffer.from(await ranged.arrayBuffer()).equals(data.subarray(1000, 2000))).toBe(true)
  })

  test('list documents without pageSize answers in pages, with a token that leads to the rest', async () => {
    const batch = one.admin.batch()
    for (let i = 0; i < 305; i++) batch.set(one.admin.doc(`paging/d${String(i).padStart(3, '0')}`), { i })
    await batch.commit()
    const base = `${firestoreUrl()}/v1/projects/${one.projectId}/databases/(default)/documents/paging`
    const first = (await (await fetch(base)).json()) as { documents: { name: string }[]; nextPageToken?: string }
    expect(first.documents.length).toBe(300)
    expect(first.nextPageToken).toEqual(expect.any(String))
    const second = (await (await fetch(`${base}?pageToken=${first.nextPageToken}`)).json()) as typeof first
    expect(second.documents.map((d) => d.name.split('/').pop())).toEqual(['d300', 'd301', 'd302', 'd303', 'd304'])
    expect(second.nextPageToken).toBeUndefined()
    expect((await one.admin.collection('paging').listDocuments()).length).toBe(305)
  })
})
