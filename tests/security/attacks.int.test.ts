// The attack suite of issue 27: a stranger with the URL and curl, against the native stack as
// `make start` runs it (emulator-lite with its data on disk and the repo's rules, the api as its own
// process). Every attack must fail with the right status and change nothing; what it tried to change
// is read back through the privileged listener with the admin secret.
import { createHmac, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readStackEnv } from '@bosted/stack/env'
import { freePort } from '@bosted/stack/ports'
import { emulatorEnv, type Stack, startStack } from '@bosted/stack/stack'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { activeIdKey, adminSecretOf, type SigningKey } from './keys.ts'

const PASSWORD = 'angreb-test-1'
const LOCATION = 'loc-a'
const OTHER_LOCATION = 'loc-b'
const PERSON = 'per-a'
const ADMIN = 'adm-a'
const EMPLOYEE = 'emp-b'
const NOTE = `persons/${PERSON}/notes/n1`
const CUSTOM_TOKEN_AUDIENCE =
  'https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit'

let stack: Stack
let dataDir: string
let project: string
/** Browser-facing: what /config.json names. */
let pub: { auth: string; firestore: string; storage: string; api: string }
/** The privileged listener (api, seed and tools only). */
let admin: string
let secret: string
let idKey: SigningKey

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const nowS = () => Math.floor(Date.now() / 1000)

function claimsFor(uid: string, extra: Record<string, unknown> = {}, issuer = 'securetoken') {
  const iat = nowS() - 10
  const iss =
    issuer === 'session'
      ? `https://session.firebase.google.com/${project}`
      : `https://securetoken.google.com/${project}`
  return {
    iss,
    aud: project,
    sub: uid,
    user_id: uid,
    auth_time: iat,
    iat,
    exp: iat + 3600,
    firebase: { identities: {}, sign_in_provider: 'password' },
    ...extra,
  }
}

const unsigned = (payload: Record<string, unknown>, header: Record<string, unknown> = {}) =>
  `${b64({ alg: 'none', typ: 'JWT', ...header })}.${b64(payload)}.`

function rs256(key: KeyObject, kid: string | undefined, payload: Record<string, unknown>): string {
  const head = b64({ alg: 'RS256', typ: 'JWT', ...(kid === undefined ? {} : { kid }) })
  const body = b64(payload)
  const signer = createSign('RSA-SHA256')
  signer.update(`${head}.${body}`)
  return `${head}.${body}.${signer.sign(key).toString('base64url')}`
}

async function json(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text()
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch {
    return { text }
  }
}

/** A call to a privileged route with the admin secret. */
async function privileged(base: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

const docPath = (path: string) => `/v1/projects/${project}/databases/(default)/documents/${path}`

/** Reads a document through the privileged listener: the ground truth after each attack. */
async function readBack(path: string): Promise<Record<string, unknown> | null> {
  const response = await privileged(`http://${admin}`, 'GET', docPath(path))
  if (response.status === 404) return null
  expect(response.status).toBe(200)
  return json(response)
}

const stringField = (doc: Record<string, unknown> | null, field: string) =>
  (doc?.fields as Record<string, { stringValue?: string }> | undefined)?.[field]?.stringValue

function commitBody(path: string, fields: Record<string, unknown>) {
  return {
    writes: [{ update: { name: `projects/${project}/databases/(default)/documents/${path}`, fields } }],
  }
}

async function createAccount(uid: string, email: string, claims: Record<string, unknown> | null) {
  const created = await privileged(
    `http://${admin}`,
    'POST',
    `/identitytoolkit.googleapis.com/v1/projects/${project}/accounts`,
    {
      localId: uid,
      email,
      password: PASSWORD,
    },
  )
  expect(created.status, await created.clone().text()).toBe(200)
  if (claims) {
    const updated = await privileged(
      `http://${admin}`,
      'POST',
      `/identitytoolkit.googleapis.com/v1/projects/${project}/accounts:update`,
      { localId: uid, customAttributes: JSON.stringify(claims) },
    )
    expect(updated.status).toBe(200)
  }
}

async function putDocument(path: string, fields: Record<string, unknown>) {
  const response = await privileged(
    `http://${admin}`,
    'POST',
    `/v1/projects/${project}/databases/(default)/documents:commit`,
    commitBody(path, fields),
  )
  expect(response.status, await response.clone().text()).toBe(200)
}

const str = (stringValue: string) => ({ stringValue })
const arr = (...values: string[]) => ({ arrayValue: { values: values.map(str) } })

async function signInWithPassword(email: string) {
  const response = await fetch(
    `${pub.auth}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
    },
  )
  const body = await json(response)
  expect(response.status, JSON.stringify(body)).toBe(200)
  return body as { idToken: string; refreshToken: string; localId: string }
}

/** A client's read of one person's document and a list of every person: what a forger wants. */
async function clientReads(token: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (token !== null) headers.authorization = `Bearer ${token}`
  const get = await fetch(`${pub.firestore}${docPath(`persons/${PERSON}`)}`, { headers })
  const list = await fetch(`${pub.firestore}/v1/projects/${project}/databases/(default)/documents:runQuery`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ structuredQuery: { from: [{ collectionId: 'persons' }] } }),
  })
  const note = await fetch(`${pub.firestore}${docPath(NOTE)}`, { headers })
  return { get: get.status, list: list.status, note: note.status }
}

const DENIED = { get: 403, list: 403, note: 403 }

async function apiLogin(idToken: string) {
  return fetch(`${pub.api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: pub.api.replace(/\/api$/, '') },
    body: JSON.stringify({ idToken }),
  })
}

async function apiWithCookie(path: string, cookie: string, method = 'GET') {
  return fetch(`${pub.api}${path}`, {
    method,
    headers: { cookie: `session=${cookie}; userId=${ADMIN}`, origin: pub.api.replace(/\/api$/, '') },
  })
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'bosted-attack-'))
  const port = async () => String(await freePort())
  const env = readStackEnv({
    APP_PORT: await port(),
    API_PORT: await port(),
    AUTH_PORT: await port(),
    FIRESTORE_PORT: await port(),
    STORAGE_PORT: await port(),
    EMULATOR_ADMIN_PORT: await port(),
    EMULATOR_HUB_PORT: await port(),
    EMULATOR_LOGGING_PORT: await port(),
    DATA_DIR: dataDir,
    AUTH_EMULATOR: 'lite',
  })
  project = env.FIREBASE_PROJECT_ID
  // As `make start` runs it: data (and keys) on disk, the api as its own process; no web, no seed.
  stack = await startStack({ env, persist: true, build: false, serveWeb: false, seed: false, api: true, log: () => {} })
  const firebaseEnv = emulatorEnv(env)
  admin = firebaseEnv.FIRESTORE_EMULATOR_HOST as string
  pub = {
    auth: stack.urls.auth,
    firestore: stack.urls.firestore as string,
    storage: stack.urls.storage as string,
    api: stack.urls.api as string,
  }
  secret = adminSecretOf(join(dataDir, 'emulator-lite'))
  idKey = activeIdKey(join(dataDir, 'emulator-lite'))

  await createAccount(ADMIN, 'admin@angreb.test', { admin: true, userRole: 'admin' })
  await createAccount(EMPLOYEE, 'medarbejder@angreb.test', { userRole: 'employee' })
  await createAccount(PERSON, 'borger@angreb.test', null)
  const at = str('2026-11-20T09:00:00.000Z')
  await putDocument(`users/${ADMIN}`, {
    id: str(ADMIN),
    firstName: str('Ada'),
    lastName: str('Admin'),
    createdAt: at,
    locations: arr(LOCATION, OTHER_LOCATION),
    userRole: str('admin'),
  })
  await putDocument(`users/${EMPLOYEE}`, {
    id: str(EMPLOYEE),
    firstName: str('Emil'),
    lastName: str('Medarbejder'),
    createdAt: at,
    locations: arr(OTHER_LOCATION),
    userRole: str('employee'),
  })
  await putDocument(`locations/${LOCATION}`, { id: str(LOCATION), name: str('Solsikken'), persons: arr(PERSON) })
  await putDocument(`persons/${PERSON}`, {
    id: str(PERSON),
    firstName: str('Berit'),
    lastName: str('Borger'),
    locationId: str(LOCATION),
    createdAt: at,
  })
  await putDocument(NOTE, {
    text: str('Sov godt i nat.'),
    day: str('2026-11-20'),
    personId: str(PERSON),
    locationId: str(LOCATION),
  })
}, 120_000)

afterAll(async () => {
  await stack?.stop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('forged identities get nothing', () => {
  test('an alg:none ID token naming an admin, with admin: true, reads nothing and gets no session', async () => {
    const forged = unsigned(claimsFor(ADMIN, { admin: true, userRole: 'admin' }))
    expect(await clientReads(forged)).toEqual(DENIED)
    expect((await apiLogin(forged)).status).toBe(401)
  })

  test('alg:none with the real kid is refused', async () => {
    const forged = unsigned(claimsFor(ADMIN, { admin: true }), { kid: idKey.kid })
    expect(await clientReads(forged)).toEqual(DENIED)
    expect((await apiLogin(forged)).status).toBe(401)
  })

  test('HS256 keyed with the published public key is refused', async () => {
    const jwks = (await json(
      await fetch(`${pub.auth}/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com`),
    )) as { keys: { kid: string }[] }
    expect(jwks.keys.map((key) => key.kid)).toContain(idKey.kid)
    const publicPem = idKey.publicPem
    const head = b64({ alg: 'HS256', typ: 'JWT', kid: idKey.kid })
    const body = b64(claimsFor(ADMIN, { admin: true }))
    const mac = createHmac('sha256', publicPem).update(`${head}.${body}`).digest('base64url')
    const forged = `${head}.${body}.${mac}`
    expect(await clientReads(forged)).toEqual(DENIED)
    expect((await apiLogin(forged)).status).toBe(401)
  })

  test('a token signed by a key emulator-lite does not know is refused, with its own kid or the real one', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    for (const kid of [idKey.kid, 'a'.repeat(40), undefined]) {
      const forged = rs256(privateKey, kid, claimsFor(ADMIN, { admin: true }))
      expect(await clientReads(forged)).toEqual(DENIED)
      expect((await apiLogin(forged)).status).toBe(401)
    }
  })

  test("a colleague's real token with admin: true added is refused", async () => {
    const { idToken } = await signInWithPassword('medarbejder@angreb.test')
    // The real token works for what the rules give an employee of another location: not this person.
    expect(await clientReads(idToken)).toEqual(DENIED)
    const [head, payload, signature] = idToken.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
    const edited = `${head}.${b64({ ...claims, admin: true, userRole: 'admin', sub: ADMIN, user_id: ADMIN })}.${signature}`
    expect(await clientReads(edited)).toEqual(DENIED)
    expect((await apiLogin(edited)).status).toBe(401)
  })

  test('an expired token, signed with the real key, is refused', async () => {
    const iat = nowS() - 7200
    const expired = rs256(
      idKey.privateKey,
      idKey.kid,
      claimsFor(ADMIN, { admin: true, iat, auth_time: iat, exp: iat + 3600 }),
    )
    expect(await clientReads(expired)).toEqual(DENIED)
    expect((await apiLogin(expired)).status).toBe(401)
  })

  test('a token for another project (aud and iss), signed with the real key, is refused', async () => {
    const other = rs256(
      idKey.privateKey,
      idKey.kid,
      claimsFor(ADMIN, { admin: true, aud: 'another-project', iss: 'https://securetoken.google.com/another-project' }),
    )
    expect(await clientReads(other)).toEqual(DENIED)
    expect((await apiLogin(other)).status).toBe(401)
  })

  test('a real token works (the suite is not refusing everything)', async () => {
    const { idToken } = await signInWithPassword('admin@angreb.test')
    expect(await clientReads(idToken)).toEqual({ get: 200, list: 200, note: 200 })
    expect((await apiLogin(idToken)).status).toBe(200)
  })
})

describe('forged session cookies open nothing in the api', () => {
  const forgedCookie = () =>
    unsigned(claimsFor(ADMIN, { admin: true, userRole: 'admin', exp: nowS() + 14 * 86400 }, 'session'))

  test('validate says a forged cookie is not valid, by body and by cookie', async () => {
    const cookie = forgedCookie()
    const byBody = await fetch(`${pub.api}/auth/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: cookie }),
    })
    expect(await json(byBody)).toEqual({ isValid: false })
    const byCookie = await fetch(`${pub.api}/auth/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `session=${cookie}` },
      body: '{}',
    })
    expect(await json(byCookie)).toEqual({ isValid: false })
  })

  test("a forged cookie opens neither a person's Adgangslog nor their export", async () => {
    for (const cookie of [
      forgedCookie(),
      rs256(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'k', claimsFor(ADMIN, {}, 'session')),
      // An ID token, really signed, is not a session cookie.
      (await signInWithPassword('admin@angreb.test')).idToken,
    ]) {
      expect((await apiWithCookie(`/person/${PERSON}/access-log`, cookie)).status).toBe(401)
      expect((await apiWithCookie(`/person/${PERSON}/export`, cookie)).status).toBe(401)
    }
  })
})

describe('refresh and custom tokens', () => {
  const exchange = (refreshToken: string) =>
    fetch(`${pub.auth}/securetoken.googleapis.com/v1/token?key=demo-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
    })

  test('a refresh token written by hand (the official emulator’s base64 JSON) is refused', async () => {
    const forged = Buffer.from(
      JSON.stringify({
        _AuthEmulatorRefreshToken: 'DO NOT MODIFY',
        localId: ADMIN,
        provider: 'password',
        extraClaims: { admin: true },
        projectId: project,
      }),
    ).toString('base64')
    const response = await exchange(forged)
    expect(response.status).toBe(400)
    expect(JSON.stringify(await json(response))).toContain('INVALID_REFRESH_TOKEN')
  })

  // "Log ud" ends this device's cookie and, on emulator-lite, this device's refresh token, which the
  // web sends with the logout (issue 32, ADR 0025). The account's other device carries on.
  test("a refresh token replayed after 'Log ud' on its device is refused; the account's other device still refreshes", async () => {
    const office = await signInWithPassword('medarbejder@angreb.test')
    const ward = await signInWithPassword('medarbejder@angreb.test')
    const login = await apiLogin(office.idToken)
    expect(login.status).toBe(200)
    const session = /session=([^;]+)/.exec(login.headers.getSetCookie().join(';'))?.[1] as string
    const logout = await fetch(`${pub.api}/auth/logout`, {
      method: 'POST',
      headers: {
        cookie: `session=${session}; userId=${EMPLOYEE}`,
        origin: pub.api.replace(/\/api$/, ''),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ refreshToken: office.refreshToken }),
    })
    expect(logout.status).toBe(200)
    const replay = await exchange(office.refreshToken)
    expect(replay.status).toBe(400)
    expect(JSON.stringify(await json(replay))).toMatch(/TOKEN_EXPIRED|INVALID_REFRESH_TOKEN/)
    expect((await exchange(ward.refreshToken)).status).toBe(200)
  })

  test('a stranger cannot revoke refresh tokens through the public Auth port', async () => {
    const { refreshToken } = await signInWithPassword('medarbejder@angreb.test')
    for (const authorization of [undefined, 'Bearer owner']) {
      const response = await fetch(`${pub.auth}/emulator/v1/projects/${project}/refreshTokens:revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ refreshToken }),
      })
      expect(response.status).toBe(403)
    }
    expect((await exchange(refreshToken)).status).toBe(200)
  })

  // Production cannot revoke one refresh token: "Log ud på alle enheder" revokes them all (as a
  // password change does), so a replayed one is refused after it too.
  test('a refresh token replayed after signing out everywhere is refused', async () => {
    const { idToken, refreshToken } = await signInWithPassword('medarbejder@angreb.test')
    expect((await exchange(refreshToken)).status).toBe(200)
    const login = await apiLogin(idToken)
    expect(login.status).toBe(200)
    const session = /session=([^;]+)/.exec(login.headers.getSetCookie().join(';'))?.[1] as string
    const logout = await fetch(`${pub.api}/auth/logout-everywhere`, {
      method: 'POST',
      headers: { cookie: `session=${session}; userId=${EMPLOYEE}`, origin: pub.api.replace(/\/api$/, '') },
    })
    expect(logout.status).toBe(200)
    // Revocation has whole-second resolution (validSince), as in production.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const replay = await exchange(refreshToken)
    expect(replay.status).toBe(400)
    expect(JSON.stringify(await json(replay))).toMatch(/TOKEN_EXPIRED|INVALID_REFRESH_TOKEN/)
  })

  test('an unsigned custom token signs nobody in', async () => {
    const iat = nowS()
    const forged = unsigned({
      iss: 'firebase-auth-emulator@example.com',
      sub: 'firebase-auth-emulator@example.com',
      aud: CUSTOM_TOKEN_AUDIENCE,
      iat,
      exp: iat + 3600,
      uid: ADMIN,
      claims: { admin: true },
    })
    const response = await fetch(
      `${pub.auth}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=demo-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: forged, returnSecureToken: true }),
      },
    )
    expect(response.status).toBe(400)
    expect(JSON.stringify(await json(response))).toContain('INVALID_CUSTOM_TOKEN')
  })
})

describe('privilege is a key, not a word', () => {
  const OWNER_WORDS = ['Bearer owner', 'Firebase owner', 'Bearer ya29.a0AfH6SMBx', 'Bearer OWNER']

  test('owner and ya29.* on the public Firestore port change nothing', async () => {
    for (const authorization of OWNER_WORDS) {
      const write = await fetch(`${pub.firestore}/v1/projects/${project}/databases/(default)/documents:commit`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(commitBody(`persons/${PERSON}`, { firstName: str('Hacket') })),
      })
      expect(write.status, authorization).toBe(403)
      const read = await fetch(`${pub.firestore}${docPath(NOTE)}`, { headers: { authorization } })
      expect(read.status, authorization).toBe(403)
    }
    expect(stringField(await readBack(`persons/${PERSON}`), 'firstName')).toBe('Berit')
  })

  test('owner on the public Storage port uploads nothing', async () => {
    const bucket = `${project}.appspot.com`
    for (const authorization of OWNER_WORDS) {
      const upload = await fetch(
        `${pub.storage}/v0/b/${bucket}/o?name=${encodeURIComponent(`persons/${PERSON}/owned.txt`)}&uploadType=media`,
        { method: 'POST', headers: { authorization, 'content-type': 'text/plain' }, body: 'x' },
      )
      expect(upload.status, authorization).toBe(403)
    }
    // The GCS JSON API (firebase-admin's Storage) is the privileged listener's only.
    const gcs = await fetch(`${pub.storage}/storage/v1/b/${bucket}/o`)
    expect(gcs.status).toBe(403)
    const listed = await privileged(`http://${admin}`, 'GET', `/storage/v1/b/${bucket}/o`)
    expect(listed.status).toBe(200)
    expect(JSON.stringify(await json(listed))).not.toContain('owned.txt')
  })

  test('owner on the public Auth port makes nobody an admin', async () => {
    for (const authorization of OWNER_WORDS) {
      const update = await fetch(`${pub.auth}/identitytoolkit.googleapis.com/v1/projects/${project}/accounts:update`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ localId: EMPLOYEE, customAttributes: JSON.stringify({ admin: true }) }),
      })
      expect(update.status, authorization).toBe(403)
      const accounts = await fetch(`${pub.auth}/emulator/v1/projects/${project}/accounts`, {
        method: 'DELETE',
        headers: { authorization },
      })
      expect(accounts.status, authorization).toBe(403)
    }
    const lookup = await privileged(
      `http://${admin}`,
      'POST',
      `/identitytoolkit.googleapis.com/v1/projects/${project}/accounts:lookup`,
      { localId: [EMPLOYEE] },
    )
    const user = ((await json(lookup)).users as { customAttributes?: string }[])[0]
    expect(JSON.parse(user?.customAttributes ?? '{}')).toEqual({ userRole: 'employee' })
  })

  test('replacing the rules or wiping the database without the credential does nothing', async () => {
    const allowAll = {
      rules: {
        files: [
          {
            name: 'firestore.rules',
            content: "rules_version = '2';\nservice cloud.firestore { match /{d=**} { allow read, write: if true; } }",
          },
        ],
      },
    }
    for (const authorization of [undefined, ...OWNER_WORDS]) {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (authorization) headers.authorization = authorization
      const rules = await fetch(`${pub.firestore}/emulator/v1/projects/${project}:securityRules`, {
        method: 'PUT',
        headers,
        body: JSON.stringify(allowAll),
      })
      expect(rules.status, String(authorization)).toBe(403)
      const wipe = await fetch(`${pub.firestore}/emulator/v1/projects/${project}/databases/(default)/documents`, {
        method: 'DELETE',
        headers,
      })
      expect(wipe.status, String(authorization)).toBe(403)
      const storageReset = await fetch(`${pub.storage}/internal/reset`, { method: 'POST', headers })
      expect(storageReset.status, String(authorization)).toBe(403)
    }
    // The rules still hold for an unauthenticated caller, and the data is all there.
    expect(await clientReads(null)).toEqual(DENIED)
    expect(stringField(await readBack(NOTE), 'text')).toBe('Sov godt i nat.')
  })

  test('the admin secret works on the public port, so the refusal above is about the credential', async () => {
    const read = await privileged(pub.firestore, 'GET', docPath(NOTE))
    expect(read.status).toBe(200)
  })
})

test('the access log holds no entry in a forged name', async () => {
  const response = await privileged(
    `http://${admin}`,
    'GET',
    `/emulator/v1/projects/${project}/accessLog?personId=${PERSON}&pageSize=1000`,
  )
  expect(response.status).toBe(200)
  const { entries } = (await json(response)) as {
    entries: { protoPayload?: { authenticationInfo?: { principalSubject?: string } }; principal?: { uid?: string } }[]
  }
  const readers = entries.map((entry) => JSON.stringify(entry))
  // The real admin's reads are there (the control test above); nothing else in the admin's name
  // beyond those, and nothing in the employee's name, whose forged admin token never read a thing.
  expect(readers.some((entry) => entry.includes(ADMIN))).toBe(true)
  expect(readers.filter((entry) => entry.includes(EMPLOYEE))).toEqual([])
  expect(readers.filter((entry) => entry.includes(ADMIN)).length).toBeLessThanOrEqual(3)
})
