import { createServer } from 'node:net'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { createApp } from '../../app.ts'
import { appConfigFromEnv } from '../../env.ts'
import { createFirebase } from '../../lib/firebase.ts'
import {
  call,
  createTestApi,
  createTestUser,
  firebaseThrough,
  fullDiskFirestore,
  loginAs,
  type TestApi,
} from '../../testing.ts'

let api: TestApi
let deadHost: string

beforeAll(async () => {
  api = createTestApi('demo-api-health')
  // A port that was free a moment ago: nothing answers there.
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  deadHost = `127.0.0.1:${typeof address === 'object' && address ? address.port : 1}`
  await new Promise((resolve) => server.close(resolve))
})
afterAll(() => api.close())

test('health answers 200 when Auth and Firestore are reachable', async () => {
  const response = await call(api.app, 'GET', '/api/health')
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({
    status: 'ok',
    checks: { auth: 'ok', firestore: 'ok', firestoreWrites: 'ok' },
  })
})

test('health answers 503 naming Firestore when it cannot be reached', async () => {
  const firestoreHost = process.env.FIRESTORE_EMULATOR_HOST
  // firebase-admin reads the emulator host when the client is created.
  process.env.FIRESTORE_EMULATOR_HOST = deadHost
  const firebase = createFirebase({
    projectId: api.env.FIREBASE_PROJECT_ID,
    firestoreProjectId: 'demo-api-health',
    useFirestoreEmulator: true,
  })
  process.env.FIRESTORE_EMULATOR_HOST = firestoreHost
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  try {
    const response = await call(createApp({ firebase }), 'GET', '/api/health')
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      error: { code: 'unavailable', message: 'Cannot reach firestore' },
      checks: { auth: 'ok', firestore: 'unreachable', firestoreWrites: 'unreachable' },
    })
    // For the operator: each failed check, after how long, and why (the request id first; firebase-admin
    // retries a read that cannot connect until the check gives up).
    const said = warn.mock.calls.map((args) => String(args[0]))
    expect(said).toContainEqual(
      expect.stringMatching(
        /^\[api\] \S+ GET \/api\/health: firestore unreachable after \d+ ms: .+; firestoreWrites unreachable after \d+ ms: .*ECONNREFUSED.*$/,
      ),
    )
  } finally {
    warn.mockRestore()
    await firebase.close()
  }
})

test('health answers 503 naming Auth when it cannot be reached', async () => {
  const authHost = process.env.FIREBASE_AUTH_EMULATOR_HOST
  process.env.FIREBASE_AUTH_EMULATOR_HOST = deadHost
  const firebase = createFirebase({
    projectId: api.env.FIREBASE_PROJECT_ID,
    firestoreProjectId: 'demo-api-health',
    useFirestoreEmulator: true,
  })
  try {
    const response = await call(createApp({ firebase }), 'GET', '/api/health')
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      error: { code: 'unavailable', message: 'Cannot reach auth' },
      checks: { auth: 'unreachable', firestore: 'ok', firestoreWrites: 'ok' },
    })
  } finally {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = authHost
    await firebase.close()
  }
})

test('health answers 503 degraded with the reason when Firestore reads but refuses writes (a full disk)', async () => {
  const proxy = await fullDiskFirestore(api.env.FIRESTORE_EMULATOR_HOST ?? '')
  const firebase = firebaseThrough(proxy.host, 'demo-api-health')
  try {
    const response = await call(createApp({ firebase }), 'GET', '/api/health')
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      status: 'degraded',
      reason: 'Firestore refuses writes (RESOURCE_EXHAUSTED): the backend cannot store anything, e.g. its disk is full',
      message:
        'Intet kan gemmes lige nu, fordi serveren ikke har plads. Det, du har skrevet, er ikke gemt. Sig det til jeres it-ansvarlige.',
      checks: { auth: 'ok', firestore: 'ok', firestoreWrites: 'resource_exhausted' },
    })
  } finally {
    await firebase.close()
    await proxy.close()
  }
})

test('a write that is only slow (a busy disk) answers 503 unavailable, never the Danish full-disk message', async () => {
  const proxy = await fullDiskFirestore(api.env.FIRESTORE_EMULATOR_HOST ?? '', { slowWritesMs: 3_000 })
  const firebase = firebaseThrough(proxy.host, 'demo-api-health')
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  try {
    const response = await call(createApp({ firebase }), 'GET', '/api/health')
    expect(response.status).toBe(503)
    const body = await response.json()
    expect(body).toEqual({
      error: { code: 'unavailable', message: expect.stringMatching(/^Firestore answers reads but /) },
      checks: { auth: 'ok', firestore: 'ok', firestoreWrites: expect.stringMatching(/^(no_answer|unreachable)$/) },
    })
    expect(JSON.stringify(body)).not.toContain('Intet kan gemmes')
  } finally {
    warn.mockRestore()
    await firebase.close()
    await proxy.close()
  }
})

test('a write while the backend stores nothing answers 507 storage_full in Danish at once, and changes nothing', async () => {
  const { db } = api.firebase
  const admin = await loginAs(api, await createTestUser(api.firebase, { userRole: 'admin' }))
  const person = await createTestUser(api.firebase, { displayName: 'Borger Fuld' })
  await db
    .collection('persons')
    .doc(person.uid)
    .set({ id: person.uid, firstName: 'Borger', lastName: 'Fuld', locationId: 'north', settings: { disabled: false } })
  const proxy = await fullDiskFirestore(api.env.FIRESTORE_EMULATOR_HOST ?? '')
  const firebase = firebaseThrough(proxy.host, 'demo-api-health')
  try {
    // The same configuration as the test api (its Auth emulator publishes the token keys).
    const app = createApp({ firebase, config: appConfigFromEnv(api.env) })
    const response = await call(app, 'PUT', `/api/person/${person.uid}/disabled`, {
      cookie: admin.cookie,
      body: { disabled: true },
    })
    expect(response.status).toBe(507)
    expect(await response.json()).toEqual({
      error: {
        code: 'storage_full',
        message:
          'Intet kan gemmes lige nu, fordi serveren ikke har plads. Det, du har skrevet, er ikke gemt. Sig det til jeres it-ansvarlige.',
      },
    })
    expect((await db.collection('persons').doc(person.uid).get()).get('settings.disabled')).toBe(false)
    expect((await api.firebase.auth.getUser(person.uid)).disabled).toBe(false)
    // Reads go on.
    const read = await call(app, 'GET', `/api/user/getUserById?id=${admin.uid}`, { cookie: admin.cookie })
    expect(read.status, await read.clone().text()).toBe(200)
  } finally {
    await firebase.close()
    await proxy.close()
  }
})
