import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { deleteApp, type FirebaseApp, initializeApp } from 'firebase/app'
import { connectAuthEmulator, initializeAuth, inMemoryPersistence, signInWithEmailAndPassword } from 'firebase/auth'
import {
  collectionGroup,
  connectFirestoreEmulator,
  doc,
  getDoc,
  getDocs,
  getFirestore,
  orderBy,
  query,
} from 'firebase/firestore/lite'
import { connectStorageEmulator, getMetadata, getStorage, list, ref, uploadBytes } from 'firebase/storage'
import { type App, deleteApp as deleteAdminApp, initializeApp as initializeAdminApp } from 'firebase-admin/app'
import { getAuth as getAdminAuth } from 'firebase-admin/auth'
import { type Firestore as AdminFirestore, initializeFirestore } from 'firebase-admin/firestore'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { MIN_COMPRESSED_BYTES, STREAM_FROM_BYTES } from '../src/http/compression.ts'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

// Compression through the official SDKs (ADR 0028). Each SDK talks to emulator-lite twice, through
// two small proxies on real sockets: one passes the request as it is and records the encoding of
// every answer (so the test knows compression happened), the other drops the client's
// Accept-Encoding (so the same SDK reads identity answers). What the SDKs read must be equal.
const PROJECT = 'demo-compression'
const BUCKET = `${PROJECT}.appspot.com`
// Enough for a runQuery answer over STREAM_FROM_BYTES: the whole collection group comes streamed.
const REGISTRATIONS = 2000

type Proxy = { port: number; encodings: (string | null)[]; close(): Promise<void> }

async function startProxy(targetPort: number, stripAcceptEncoding: boolean): Promise<Proxy> {
  const encodings: (string | null)[] = []
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers }
    if (stripAcceptEncoding) delete headers['accept-encoding']
    const upstream = request(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers },
      (answer) => {
        encodings.push(answer.headers['content-encoding'] ?? null)
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    encodings,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

type Raw = { status: number; headers: IncomingHttpHeaders; data: Buffer }

/** A raw HTTP call: the bytes as they left emulator-lite, with no transparent decompression. */
function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, data: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

const decode = (answer: Raw): Buffer => {
  const encoding = answer.headers['content-encoding']
  if (encoding === 'gzip') return gunzipSync(answer.data)
  if (encoding === 'br') return brotliDecompressSync(answer.data)
  expect(encoding).toBeUndefined()
  return answer.data
}

let emulator: EmulatorLite
const proxies: Proxy[] = []
const apps: FirebaseApp[] = []
const adminApps: App[] = []
let through: Record<'firestore' | 'storage' | 'auth' | 'admin', { plain: Proxy; compressed: Proxy }>

function adminFirestore(port: number, name: string): AdminFirestore {
  process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`
  const app = initializeAdminApp({ projectId: PROJECT }, name)
  adminApps.push(app)
  const firestore = initializeFirestore(app, { preferRest: true })
  // firebase-admin's REST transport needs an auth client even against an emulator (docs/wire/firestore-rest.md#firebase-admin-set-up).
  firestore.settings({
    auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
  } as never)
  return firestore
}

function webApp(name: string, ports: { firestore: number; storage: number; auth: number }) {
  const app = initializeApp({ projectId: PROJECT, apiKey: 'fake-api-key', storageBucket: BUCKET }, name)
  apps.push(app)
  const firestore = getFirestore(app)
  connectFirestoreEmulator(firestore, '127.0.0.1', ports.firestore)
  const storage = getStorage(app)
  connectStorageEmulator(storage, '127.0.0.1', ports.storage)
  const auth = initializeAuth(app, { persistence: inMemoryPersistence })
  connectAuthEmulator(auth, `http://127.0.0.1:${ports.auth}`, { disableWarnings: true })
  return { firestore, storage, auth }
}

const day = (index: number) => new Date(Date.UTC(2026, 8, 1 + (index % 90))).toISOString().slice(0, 10)

beforeAll(async () => {
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    inMemory: true,
    authProjectId: PROJECT,
  })
  const pair = async (port: number) => {
    const plain = await startProxy(port, true)
    const compressed = await startProxy(port, false)
    proxies.push(plain, compressed)
    return { plain, compressed }
  }
  through = {
    firestore: await pair(emulator.firestorePort),
    storage: await pair(emulator.storagePort),
    auth: await pair(emulator.authPort),
    admin: await pair(emulator.adminPort),
  }
  // Registrations as the app writes them, in persons' subcollections.
  const writer = adminFirestore(emulator.adminPort, 'writer')
  let batch = writer.batch()
  for (let index = 0; index < REGISTRATIONS; index += 1) {
    if (index % 500 === 0 && index > 0) {
      await batch.commit()
      batch = writer.batch()
    }
    batch.set(writer.doc(`persons/p${index % 12}/registrations/r${index}`), {
      answerId: index % 3 ? 'good' : 'bad',
      text: index % 3 ? 'Godt' : 'Skidt',
      value: index % 3 ? 3 : 1,
      entity: 'location',
      day: day(index),
      createdAt: `${day(index)}T10:00:00.000Z`,
      createdByName: 'Åse Nørgård',
      personId: `p${index % 12}`,
      locationId: 'home',
    })
  }
  await batch.commit()
})

afterAll(async () => {
  for (const app of apps) await deleteApp(app)
  for (const app of adminApps) await deleteAdminApp(app)
  for (const proxy of proxies) await proxy.close()
  await emulator.close()
})

const portsOf = (mode: 'plain' | 'compressed') => ({
  firestore: through.firestore[mode].port,
  storage: through.storage[mode].port,
  auth: through.auth[mode].port,
})

test('the web SDK (Firestore Lite) and firebase-admin read the same documents compressed as uncompressed', async () => {
  const compressed = webApp('compressed', portsOf('compressed'))
  const plain = webApp('plain', portsOf('plain'))
  const registrations = (db: typeof compressed.firestore) =>
    getDocs(query(collectionGroup(db, 'registrations'), orderBy('day'))).then((snapshot) =>
      snapshot.docs.map((document) => ({ path: document.ref.path, data: document.data() })),
    )
  const viaCompressed = await registrations(compressed.firestore)
  const viaPlain = await registrations(plain.firestore)
  expect(viaCompressed).toHaveLength(REGISTRATIONS)
  expect(viaCompressed).toEqual(viaPlain)
  const one = (db: typeof compressed.firestore) => getDoc(doc(db, 'persons/p1/registrations/r1')).then((d) => d.data())
  expect(await one(compressed.firestore)).toEqual(await one(plain.firestore))
  // The web SDK's fetch offers gzip: the large answer came compressed; without the offer, nothing did.
  expect(through.firestore.compressed.encodings).toContain('gzip')
  expect(through.firestore.plain.encodings.every((encoding) => encoding === null)).toBe(true)

  const adminCompressed = adminFirestore(through.admin.compressed.port, 'admin-compressed')
  const adminPlain = adminFirestore(through.admin.plain.port, 'admin-plain')
  const adminRead = (db: AdminFirestore) =>
    db
      .collectionGroup('registrations')
      .orderBy('day')
      .get()
      .then((snapshot) => snapshot.docs.map((document) => ({ path: document.ref.path, data: document.data() })))
  const adminViaCompressed = await adminRead(adminCompressed)
  expect(adminViaCompressed).toEqual(await adminRead(adminPlain))
  expect(adminViaCompressed.map(({ path, data }) => ({ path, data: { ...data } }))).toEqual(viaPlain)
  expect(through.admin.compressed.encodings).toContain('gzip')
  expect(through.admin.plain.encodings.every((encoding) => encoding === null)).toBe(true)
})

test('a compressed runQuery answer is byte for byte the identity answer, in gzip and in brotli', async () => {
  const readTime = new Date().toISOString()
  const body = JSON.stringify({
    structuredQuery: { from: [{ collectionId: 'registrations', allDescendants: true }] },
    readTime,
  })
  const path = `/v1/projects/${PROJECT}/databases/(default)/documents:runQuery`
  const call = (acceptEncoding?: string) =>
    raw(
      emulator.firestorePort,
      'POST',
      path,
      { 'content-type': 'application/json', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
      body,
    )
  const identity = await call()
  expect(identity.status).toBe(200)
  expect(identity.headers['content-encoding']).toBeUndefined()
  expect(identity.headers['content-length']).toBe(String(identity.data.length))
  expect(identity.headers.vary).toBe('Origin, Accept-Encoding')
  expect(JSON.parse(identity.data.toString('utf8'))).toHaveLength(REGISTRATIONS)
  expect(identity.data.length).toBeGreaterThan(STREAM_FROM_BYTES)
  for (const [offer, encoding] of [
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
  ] as const) {
    const answer = await call(offer)
    expect(answer.headers['content-encoding']).toBe(encoding)
    expect(answer.headers.vary).toBe('Origin, Accept-Encoding')
    // Streamed: no Content-Length, chunked.
    expect(answer.headers['content-length']).toBeUndefined()
    expect(answer.headers['transfer-encoding']).toBe('chunked')
    expect(answer.data.length).toBeLessThan(identity.data.length / 5)
    expect(decode(answer).equals(identity.data)).toBe(true)
  }
})

test('Storage metadata is compressed and equal; media goes as stored, Range intact', async () => {
  const compressed = webApp('storage-compressed', portsOf('compressed'))
  const plain = webApp('storage-plain', portsOf('plain'))
  // A JPEG's bytes (already compressed: never compressed again), with metadata over the threshold.
  const image = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5000, 7)])
  const customMetadata = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`key${i}`, `værdi ${i} `.repeat(4)]))
  for (let index = 0; index < 12; index += 1)
    await uploadBytes(ref(compressed.storage, `persons/p1/images/${index}.jpg`), image, {
      contentType: 'image/jpeg',
      customMetadata,
    })
  const meta = (storage: typeof compressed.storage) => getMetadata(ref(storage, 'persons/p1/images/3.jpg'))
  expect(await meta(compressed.storage)).toEqual(await meta(plain.storage))
  const listed = (storage: typeof compressed.storage) =>
    list(ref(storage, 'persons/p1/images')).then((page) => page.items.map((item) => item.fullPath))
  expect(await listed(compressed.storage)).toEqual(await listed(plain.storage))
  expect(through.storage.compressed.encodings).toContain('gzip')
  expect(through.storage.plain.encodings.every((encoding) => encoding === null)).toBe(true)

  const object = `/v0/b/${BUCKET}/o/${encodeURIComponent('persons/p1/images/3.jpg')}`
  const metadata = await raw(emulator.storagePort, 'GET', object, { 'accept-encoding': 'gzip, br' })
  expect(metadata.headers['content-encoding']).toBe('br')
  const plainMetadata = await raw(emulator.storagePort, 'GET', object, {})
  expect(decode(metadata).equals(plainMetadata.data)).toBe(true)

  const media = await raw(emulator.storagePort, 'GET', `${object}?alt=media`, { 'accept-encoding': 'gzip, br' })
  expect(media.status).toBe(200)
  expect(media.headers['content-encoding']).toBeUndefined()
  expect(media.headers['content-length']).toBe(String(image.length))
  expect(media.data.equals(image)).toBe(true)
  const range = await raw(emulator.storagePort, 'GET', `${object}?alt=media`, {
    'accept-encoding': 'gzip, br',
    range: 'bytes=0-3',
  })
  expect(range.status).toBe(206)
  expect(range.headers['content-encoding']).toBeUndefined()
  expect(range.headers['content-range']).toBe(`bytes 0-3/${image.length}`)
  expect(range.data.equals(image.subarray(0, 4))).toBe(true)
})

test('Auth answers are compressed and equal through the web SDK; firebase-admin, which offers nothing, gets identity', async () => {
  const admin = getAdminAuth(
    (() => {
      process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${through.admin.compressed.port}`
      const app = initializeAdminApp({ projectId: PROJECT }, 'auth-admin')
      adminApps.push(app)
      return app
    })(),
  )
  const created = await admin.createUser({ email: 'ase@example.dk', password: 'hemmelig1', displayName: 'Åse' })
  // Claims as the app sets them (role, locations): the account's lookup answer grows over the threshold.
  const locations = Array.from({ length: 30 }, (_, i) => `location-${i}`)
  await admin.setCustomUserClaims(created.uid, { role: 'employee', locations })
  const before = through.admin.compressed.encodings.length
  expect((await admin.getUser(created.uid)).email).toBe('ase@example.dk')
  // firebase-admin's own HTTP client sends no Accept-Encoding: identity answers only.
  expect(through.admin.compressed.encodings.slice(before).every((encoding) => encoding === null)).toBe(true)

  const compressed = webApp('auth-compressed', portsOf('compressed'))
  const plain = webApp('auth-plain', portsOf('plain'))
  const viaCompressed = await signInWithEmailAndPassword(compressed.auth, 'ase@example.dk', 'hemmelig1')
  const viaPlain = await signInWithEmailAndPassword(plain.auth, 'ase@example.dk', 'hemmelig1')
  expect(viaCompressed.user.uid).toBe(created.uid)
  expect(viaCompressed.user.toJSON()).toMatchObject({ uid: created.uid, email: 'ase@example.dk', displayName: 'Åse' })
  expect(viaPlain.user.uid).toBe(created.uid)
  // The sign-in answer (ID token and refresh token) is over the threshold: it came compressed.
  expect(through.auth.compressed.encodings).toContain('gzip')
  expect(through.auth.plain.encodings.every((encoding) => encoding === null)).toBe(true)

  // Byte for byte: the same account lookup, compressed and not.
  const idToken = await viaCompressed.user.getIdToken()
  const lookup = (acceptEncoding?: string) =>
    raw(
      emulator.authPort,
      'POST',
      '/identitytoolkit.googleapis.com/v1/accounts:lookup?key=fake-api-key',
      { 'content-type': 'application/json', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
      JSON.stringify({ idToken }),
    )
  const identity = await lookup()
  expect(identity.status).toBe(200)
  expect(identity.headers['content-type']).toBe('application/json')
  const gzip = await lookup('gzip')
  expect(identity.data.length).toBeGreaterThanOrEqual(MIN_COMPRESSED_BYTES)
  expect(identity.headers['content-encoding']).toBeUndefined()
  expect(gzip.headers['content-encoding']).toBe('gzip')
  expect(decode(gzip).equals(identity.data)).toBe(true)
})

test('HEAD, 204 and preflight answers carry no body and no encoding, and the connection stays good', async () => {
  const path = `/v1/projects/${PROJECT}/databases/(default)/documents/persons/p1/registrations?pageSize=100`
  const get = await raw(emulator.firestorePort, 'GET', path, { 'accept-encoding': 'gzip' })
  expect(get.headers['content-encoding']).toBe('gzip')
  // Under STREAM_FROM_BYTES: compressed at once, with the compressed Content-Length.
  expect(get.headers['content-length']).toBe(String(get.data.length))
  const identity = await raw(emulator.firestorePort, 'GET', path, {})
  const head = await raw(emulator.firestorePort, 'HEAD', path, { 'accept-encoding': 'gzip' })
  expect(head.status).toBe(200)
  expect(head.headers['content-encoding']).toBeUndefined()
  expect(head.headers['content-length']).toBe(String(identity.data.length))
  expect(head.data.length).toBe(0)

  const object = `/v0/b/${BUCKET}/o/${encodeURIComponent('persons/p1/images/0.jpg')}`
  const deleted = await raw(emulator.storagePort, 'DELETE', object, { 'accept-encoding': 'gzip, br' })
  expect(deleted.status).toBe(204)
  expect(deleted.headers['content-encoding']).toBeUndefined()
  expect(deleted.data.length).toBe(0)
  const preflight = await raw(emulator.firestorePort, 'OPTIONS', path, {
    origin: 'http://localhost:5173',
    'access-control-request-method': 'POST',
    'accept-encoding': 'gzip',
  })
  expect(preflight.status).toBe(204)
  expect(preflight.headers['content-encoding']).toBeUndefined()
  expect(preflight.data.length).toBe(0)

  const again = await raw(emulator.firestorePort, 'GET', path, { 'accept-encoding': 'gzip' })
  expect(decode(again).equals(identity.data)).toBe(true)
})
