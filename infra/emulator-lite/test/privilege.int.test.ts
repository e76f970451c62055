// Privilege has a key, not a word (issue 27 point 3): the browser-facing listeners refuse the owner
// credential and the management endpoints unless the admin secret is presented; the admin listener
// serves Auth, Firestore and Storage on one port, where firebase-admin's `Bearer owner` works.
// Every refusal is checked to have changed nothing, by reading back through the admin listener.
import { mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type EmulatorLite, type Listener, type Route, startEmulatorLite } from '../src/index.ts'
import type { RulesAuth } from '../src/rules/index.ts'

const PROJECT = 'demo-privilege'
const BUCKET = `${PROJECT}.appspot.com`
const DENY_ALL = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /{document=**} { allow read, write: if false; }
  }
}`
const ALLOW_ALL = DENY_ALL.replace('if false', 'if true')
const ROOT = `projects/${PROJECT}/databases/(default)/documents`

let emulator: EmulatorLite
const verified: { token: string; project: string }[] = []
const url = (listener: Listener, path: string) =>
  `http://127.0.0.1:${listener === 'admin' ? emulator.adminPort : emulator[`${listener}Port`]}${path}`
const OWNER_WORDS = ['Bearer owner', 'Firebase owner', 'Bearer ya29.some-access-token']
const secret = () => `Bearer ${emulator.adminSecret}`

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'privilege-'))
  writeFileSync(join(dir, 'firestore.rules'), DENY_ALL)
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    inMemory: true,
    authProjectId: PROJECT,
    firestoreRules: join(dir, 'firestore.rules'),
    // The injected verifier sees every ID token with the project it must be for; it believes none.
    verifyIdToken: (token: string, project: string): RulesAuth | null => {
      verified.push({ token, project })
      return null
    },
  })
})
afterAll(() => emulator?.close())

/** A document as the admin listener (owner) sees it: its fields, or null when missing. */
async function adminDocument(path: string): Promise<unknown> {
  const response = await fetch(url('admin', `/v1/${ROOT}/${path}`), { headers: { authorization: 'Bearer owner' } })
  if (response.status === 404) return null
  expect(response.status).toBe(200)
  return ((await response.json()) as { fields: unknown }).fields
}

async function adminWrite(path: string, value: string): Promise<void> {
  const response = await fetch(url('admin', `/v1/${ROOT}:commit`), {
    method: 'POST',
    headers: { authorization: 'Bearer owner' },
    body: JSON.stringify({ writes: [{ update: { name: `${ROOT}/${path}`, fields: { v: { stringValue: value } } } }] }),
  })
  expect(response.status).toBe(200)
}

/** Whether an object exists, through the GCS JSON API on the admin listener (no credentials). */
async function adminObjectExists(name: string): Promise<boolean> {
  const response = await fetch(url('admin', `/storage/v1/b/${BUCKET}/o/${encodeURIComponent(name)}`))
  return response.status === 200
}

async function adminUpload(name: string): Promise<void> {
  const response = await fetch(url('admin', `/upload/storage/v1/b/${BUCKET}/o?uploadType=media&name=${name}`), {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'kept',
  })
  expect(response.status).toBe(200)
}

async function adminUserCount(): Promise<number> {
  const response = await fetch(
    url('admin', `/identitytoolkit.googleapis.com/v1/projects/${PROJECT}/accounts:batchGet`),
    {
      headers: { authorization: 'Bearer owner' },
    },
  )
  expect(response.status).toBe(200)
  return ((await response.json()) as { users?: unknown[] }).users?.length ?? 0
}

async function expectRefused(response: Response): Promise<void> {
  expect(response.status).toBe(403)
  const body = (await response.json()) as { error: { code: number; status?: string } }
  expect(body.error.code).toBe(403)
  expect(body.error.status).toBe('PERMISSION_DENIED')
}

describe('the owner credential on the browser-facing listeners', () => {
  test.each(OWNER_WORDS)('Firestore refuses %s with 403 and writes nothing', async (authorization) => {
    const response = await fetch(url('firestore', `/v1/${ROOT}:commit`), {
      method: 'POST',
      headers: { authorization },
      body: JSON.stringify({ writes: [{ update: { name: `${ROOT}/attacks/owner`, fields: {} } }] }),
    })
    await expectRefused(response)
    const read = await fetch(url('firestore', `/v1/${ROOT}/attacks/owner`), { headers: { authorization } })
    await expectRefused(read)
    expect(await adminDocument('attacks/owner')).toBeNull()
  })

  test.each(OWNER_WORDS)('Storage refuses %s with 403 and stores nothing', async (authorization) => {
    const response = await fetch(url('storage', `/v0/b/${BUCKET}/o?name=attacks%2Fowner.txt`), {
      method: 'POST',
      headers: { authorization, 'content-type': 'text/plain' },
      body: 'forged',
    })
    await expectRefused(response)
    expect(await adminObjectExists('attacks/owner.txt')).toBe(false)
  })

  test.each(OWNER_WORDS)('Auth refuses %s with 403 and creates no account', async (authorization) => {
    const before = await adminUserCount()
    const response = await fetch(url('auth', '/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k'), {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'forged@example.dk', password: 'hemmelig1' }),
    })
    await expectRefused(response)
    expect(await adminUserCount()).toBe(before)
  })
})

describe('management endpoints: 403 on the public listeners without the secret, work with it, and with owner on the admin listener', () => {
  const rulesBody = (content: string) => JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content }] } })
  const anonymousWrite = (id: string) =>
    fetch(url('firestore', `/v1/${ROOT}:commit`), {
      method: 'POST',
      body: JSON.stringify({ writes: [{ update: { name: `${ROOT}/open/${id}`, fields: {} } }] }),
    })

  test('PUT …:securityRules', async () => {
    const path = `/emulator/v1/projects/${PROJECT}:securityRules`
    const put = (listener: Listener, authorization?: string, content = ALLOW_ALL) =>
      fetch(url(listener, path), {
        method: 'PUT',
        headers: authorization ? { authorization } : {},
        body: rulesBody(content),
      })
    await expectRefused(await put('firestore'))
    await expectRefused(await put('firestore', 'Bearer owner'))
    expect((await anonymousWrite('a')).status).toBe(403)
    expect((await put('firestore', secret())).status).toBe(200)
    expect((await anonymousWrite('b')).status).toBe(200)
    expect((await put('admin', 'Bearer owner', DENY_ALL)).status).toBe(200)
    expect((await anonymousWrite('c')).status).toBe(403)
  })

  test('DELETE …/databases/(default)/documents', async () => {
    const path = `/emulator/v1/projects/${PROJECT}/databases/(default)/documents`
    await adminWrite('kept/doc', 'x')
    await expectRefused(await fetch(url('firestore', path), { method: 'DELETE' }))
    await expectRefused(
      await fetch(url('firestore', path), { method: 'DELETE', headers: { authorization: 'Bearer owner' } }),
    )
    expect(await adminDocument('kept/doc')).toEqual({ v: { stringValue: 'x' } })
    expect(
      (await fetch(url('firestore', path), { method: 'DELETE', headers: { authorization: secret() } })).status,
    ).toBe(200)
    expect(await adminDocument('kept/doc')).toBeNull()
    await adminWrite('kept/doc', 'y')
    expect(
      (await fetch(url('admin', path), { method: 'DELETE', headers: { authorization: 'Bearer owner' } })).status,
    ).toBe(200)
    expect(await adminDocument('kept/doc')).toBeNull()
  })

  test('Storage /internal/reset and /internal/setRules', async () => {
    await adminUpload('kept.txt')
    await expectRefused(await fetch(url('storage', '/internal/reset'), { method: 'POST' }))
    expect(await adminObjectExists('kept.txt')).toBe(true)
    const rules = JSON.stringify({
      rules: {
        files: [
          {
            name: 'storage.rules',
            content:
              "rules_version = '2';\nservice firebase.storage { match /b/{b}/o { match /{all=**} { allow read, write: if true; } } }",
          },
        ],
      },
    })
    await expectRefused(await fetch(url('storage', '/internal/setRules'), { method: 'PUT', body: rules }))
    expect(
      (
        await fetch(url('storage', '/internal/setRules'), {
          method: 'PUT',
          body: rules,
          headers: { authorization: secret() },
        })
      ).status,
    ).toBe(200)
    expect((await fetch(url('admin', '/internal/setRules'), { method: 'PUT', body: rules })).status).toBe(200)
    expect(
      (await fetch(url('storage', '/internal/reset'), { method: 'POST', headers: { authorization: secret() } })).status,
    ).toBe(200)
    expect(await adminObjectExists('kept.txt')).toBe(false)
    await adminUpload('kept.txt')
    expect((await fetch(url('admin', '/internal/reset'), { method: 'POST' })).status).toBe(200)
    expect(await adminObjectExists('kept.txt')).toBe(false)
  })

  test('the GCS JSON API', async () => {
    await adminUpload('listed.txt')
    const list = `/storage/v1/b/${BUCKET}/o`
    await expectRefused(await fetch(url('storage', list)))
    await expectRefused(await fetch(url('storage', list), { headers: { authorization: 'Bearer ya29.x' } }))
    const upload = await fetch(url('storage', `/upload/storage/v1/b/${BUCKET}/o?uploadType=media&name=forged.txt`), {
      method: 'POST',
      body: 'forged',
    })
    await expectRefused(upload)
    expect(await adminObjectExists('forged.txt')).toBe(false)
    const withSecret = await fetch(url('storage', list), { headers: { authorization: secret() } })
    expect(withSecret.status).toBe(200)
    expect(JSON.stringify(await withSecret.json())).toContain('listed.txt')
    expect((await fetch(url('admin', list))).status).toBe(200)
  })

  test('Auth DELETE /emulator/v1/projects/{p}/accounts and POST /identitytoolkit…/projects/{p}/accounts', async () => {
    const create = (listener: Listener, email: string, authorization?: string) =>
      fetch(url(listener, `/identitytoolkit.googleapis.com/v1/projects/${PROJECT}/accounts?key=k`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ email, password: 'hemmelig1' }),
      })
    const before = await adminUserCount()
    await expectRefused(await create('auth', 'public@example.dk'))
    expect(await adminUserCount()).toBe(before)
    expect((await create('auth', 'secret@example.dk', secret())).status).toBe(200)
    expect((await create('admin', 'owner@example.dk', 'Bearer owner')).status).toBe(200)
    expect(await adminUserCount()).toBe(before + 2)

    const clear = `/emulator/v1/projects/${PROJECT}/accounts`
    await expectRefused(await fetch(url('auth', clear), { method: 'DELETE' }))
    expect(await adminUserCount()).toBe(before + 2)
    expect((await fetch(url('auth', clear), { method: 'DELETE', headers: { authorization: secret() } })).status).toBe(
      200,
    )
    expect(await adminUserCount()).toBe(0)
    expect((await create('admin', 'again@example.dk', 'Bearer owner')).status).toBe(200)
    expect(
      (await fetch(url('admin', clear), { method: 'DELETE', headers: { authorization: 'Bearer owner' } })).status,
    ).toBe(200)
    expect(await adminUserCount()).toBe(0)
  })
})

test('the admin secret is 32 random bytes base64url after elsec_, and differs per in-memory instance', async () => {
  expect(emulator.adminSecret).toMatch(/^elsec_[A-Za-z0-9_-]{43}$/)
  const other = await startEmulatorLite({ firestorePort: 0, storagePort: 0, inMemory: true })
  try {
    expect(other.adminSecret).not.toBe(emulator.adminSecret)
    expect(other.adminSecretFile).toBeNull()
  } finally {
    await other.close()
  }
})

test('on disk the admin secret lives in <dataDir>/admin-secret (0600) and survives a restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'privilege-data-'))
  const first = await startEmulatorLite({ firestorePort: 0, storagePort: 0, dataDir })
  const file = first.adminSecretFile
  const kept = first.adminSecret
  await first.close()
  expect(file).toBe(join(dataDir, 'admin-secret'))
  expect(statSync(file as string).mode & 0o777).toBe(0o600)
  const second = await startEmulatorLite({ firestorePort: 0, storagePort: 0, dataDir })
  try {
    expect(second.adminSecret).toBe(kept)
  } finally {
    await second.close()
  }
})

/** A concrete path for a route's Hono pattern (`:name` and `:name{regex}` filled with a sample). */
function samplePath(pattern: string): string {
  return pattern.replace(/:(\w+)(?:\{([^}]*)\})?/g, (_whole, _name: string, regex: string | undefined) => {
    if (regex === undefined) return 'x'
    const sample = regex
      .replace(/\(\?:[^()]*\)\?/g, '')
      .replace(/\(\?:([^|()]*)[^()]*\)/g, '$1')
      .split('|')[0]
      ?.replace(/\[\^[^\]]*\][+*]/g, 'x')
      .replace(/\/\?/g, '')
      .replace(/\\w\+/g, 'lookup')
      .replace(/\.\*/g, '') as string
    expect(new RegExp(`^(?:${regex})$`).test(sample), `${pattern}: ${sample}`).toBe(true)
    return sample
  })
}

describe('every route of every table passes through identity and privilege', () => {
  const routesOf = (listener: Exclude<Listener, 'admin'>) =>
    emulator.routes[listener].map((route) => [route.name, route] as const)

  test.each(['firestore', 'storage', 'auth'] as const)(
    '%s: owner is refused, a malformed header is 401, management needs the secret',
    async (listener) => {
      const routes = routesOf(listener)
      expect(routes.length).toBeGreaterThan(2)
      for (const [name, route] of routes) {
        const path = samplePath(route.path)
        const send = (authorization?: string) =>
          fetch(url(listener, path), {
            method: route.method,
            headers: authorization === undefined ? {} : { authorization },
            body: route.method === 'GET' || route.method === 'HEAD' ? undefined : '{}',
          })
        expect((await send('Bearer owner')).status, `${name} ${route.method} ${path} with owner`).toBe(403)
        expect((await send('Basic eA==')).status, `${name} ${route.method} ${path} malformed`).toBe(401)
        if (route.management) expect((await send()).status, `${name} ${route.method} ${path} anonymous`).toBe(403)
      }
    },
  )

  test('the identity middleware hands every Firestore and Storage ID token to the injected verifier, with the request’s project', async () => {
    const token = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'
    for (const listener of ['firestore', 'storage'] as const) {
      for (const [name, route] of routesOf(listener)) {
        verified.length = 0
        const path = samplePath(route.path)
        await fetch(url(listener, path), {
          method: route.method,
          headers: { authorization: `Bearer ${token}` },
          body: route.method === 'GET' ? undefined : '{}',
        })
        expect(verified, `${name} ${route.method} ${path}`).toEqual([{ token, project: expect.any(String) }])
      }
    }
    verified.length = 0
    await fetch(url('firestore', `/v1/projects/p-one/databases/(default)/documents/a/b`), {
      headers: { authorization: `Bearer ${token}` },
    })
    await fetch(url('storage', '/v0/b/p-two.appspot.com/o/a'), { headers: { authorization: `Firebase ${token}` } })
    expect(verified).toEqual([
      { token, project: 'p-one' },
      { token, project: 'p-two' },
    ])
  })

  test('the admin listener serves all three tables on one port', () => {
    const names = new Set(emulator.routes.admin.map((route: Route) => route.name))
    for (const listener of ['firestore', 'storage', 'auth'] as const)
      for (const route of emulator.routes[listener])
        if (!route.name.endsWith('.root') && !route.name.endsWith('.health'))
          expect(names.has(route.name), route.name).toBe(true)
  })
})
