import { generateKeyPairSync } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@bosted/stack/ports'
import { deleteApp, type FirebaseApp, initializeApp } from 'firebase/app'
import {
  type Auth,
  connectAuthEmulator,
  initializeAuth,
  inMemoryPersistence,
  signInWithEmailAndPassword,
} from 'firebase/auth'
import { connectFirestoreEmulator, doc, getDoc, getFirestore } from 'firebase/firestore/lite'
import { createRemoteJWKSet, decodeProtectedHeader, importX509, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { signJwt } from '../src/auth/identity.ts'
import { type EmulatorLite, KEY_PATHS, SIGNING_KEYS_FILE, startEmulatorLite } from '../src/index.ts'
import { startCliProcess } from './cli-process.ts'
import { signUnsigned } from './forged-token.ts'

// Signed identity end to end: the web SDK signs in to emulator-lite's Auth and its real tokens open
// what the rules allow; forged ones open nothing; the keys are published where Google publishes
// its own, and survive a restart (docs/decisions/0010-signed-identity.md).
const PROJECT = 'demo-identity'
const PASSWORD = 'hemmelig1'
const FIRESTORE_RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /people/{uid} { allow read: if request.auth != null && request.auth.uid == uid; }
    match /admin/{doc} { allow read: if request.auth != null && request.auth.token.admin == true; }
  }
}`
const STORAGE_RULES = `rules_version = '2';
service firebase.storage {
  match /b/{bucket}/o {
    match /private/{uid}/{file} { allow read: if request.auth != null && request.auth.uid == uid; }
  }
}`
const OWNER = { authorization: 'Bearer owner' }

let dataDir: string
let rulesDir: string
let emulator: EmulatorLite
const apps: FirebaseApp[] = []
const options = () => ({
  firestorePort: 0,
  storagePort: 0,
  authPort: 0,
  authProjectId: PROJECT,
  dataDir,
  firestoreRules: join(rulesDir, 'firestore.rules'),
  storageRules: join(rulesDir, 'storage.rules'),
})
const authUrl = (path: string) => `http://127.0.0.1:${emulator.authPort}${path}`
/** The owner credential is believed on the admin listener only (Auth, Firestore and Storage on one port). */
const adminUrl = (path: string) => `http://127.0.0.1:${emulator.adminPort}${path}`
const docUrl = (path: string) =>
  `http://127.0.0.1:${emulator.firestorePort}/v1/projects/${PROJECT}/databases/(default)/documents/${path}`
const objectUrl = (name: string) =>
  `http://127.0.0.1:${emulator.storagePort}/v0/b/${PROJECT}.appspot.com/o/${encodeURIComponent(name)}?alt=media`
const readAs = (token: string | null, path: string) =>
  fetch(docUrl(path), token ? { headers: { authorization: `Bearer ${token}` } } : {}).then((r) => r.status)
const downloadAs = (token: string, name: string) =>
  fetch(objectUrl(name), { headers: { authorization: `Firebase ${token}` } }).then((r) => r.status)

async function admin(path: string, body: unknown): Promise<void> {
  const response = await fetch(adminUrl(`/identitytoolkit.googleapis.com/v1/projects/${PROJECT}/${path}`), {
    method: 'POST',
    headers: { ...OWNER, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status, await response.text()).toBe(200)
}

function webAuth(name: string): Auth {
  const app = initializeApp({ projectId: PROJECT, apiKey: 'fake-api-key' }, `identity-${name}-${apps.length}`)
  apps.push(app)
  const auth = initializeAuth(app, { persistence: inMemoryPersistence })
  connectAuthEmulator(auth, `http://127.0.0.1:${emulator.authPort}`, { disableWarnings: true })
  return auth
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'emulator-lite-identity-'))
  rulesDir = mkdtempSync(join(tmpdir(), 'emulator-lite-identity-rules-'))
  writeFileSync(join(rulesDir, 'firestore.rules'), FIRESTORE_RULES)
  writeFileSync(join(rulesDir, 'storage.rules'), STORAGE_RULES)
  emulator = await startEmulatorLite(options())
  for (const [uid, claims] of [
    ['alice', null],
    ['boss', { admin: true }],
  ] as const) {
    await admin('accounts', { localId: uid, email: `${uid}@example.dk`, password: PASSWORD })
    if (claims) await admin('accounts:update', { localId: uid, customAttributes: JSON.stringify(claims) })
  }
  const commit = await fetch(adminUrl(`/v1/projects/${PROJECT}/databases/(default)/documents:commit`), {
    method: 'POST',
    headers: { ...OWNER, 'content-type': 'application/json' },
    body: JSON.stringify({
      writes: ['people/alice', 'people/boss', 'admin/secret'].map((path) => ({
        update: {
          name: `projects/${PROJECT}/databases/(default)/documents/${path}`,
          fields: { x: { integerValue: '1' } },
        },
      })),
    }),
  })
  expect(commit.status).toBe(200)
  const upload = await fetch(
    adminUrl(`/v0/b/${PROJECT}.appspot.com/o?name=${encodeURIComponent('private/boss/a.txt')}`),
    { method: 'POST', headers: { ...OWNER, 'content-type': 'text/plain' }, body: 'hemmeligt' },
  )
  expect(upload.status).toBe(200)
})

afterAll(async () => {
  await Promise.all(apps.map((app) => deleteApp(app)))
  await emulator?.close()
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(rulesDir, { recursive: true, force: true })
})

describe('signed identity', () => {
  test('a web SDK sign-in reads what the rules give that user, and nothing else', async () => {
    const auth = webAuth('alice')
    const { user } = await signInWithEmailAndPassword(auth, 'alice@example.dk', PASSWORD)
    expect(decodeProtectedHeader(await user.getIdToken())).toMatchObject({ alg: 'RS256', typ: 'JWT' })
    const db = getFirestore(auth.app)
    connectFirestoreEmulator(db, '127.0.0.1', emulator.firestorePort)
    expect((await getDoc(doc(db, 'people/alice'))).data()).toEqual({ x: 1 })
    expect(
      await getDoc(doc(db, 'people/boss')).then(
        () => 'read',
        (error) => error.code,
      ),
    ).toBe('permission-denied')
  })

  test("a forged token in an admin's name gets nothing under the rules; the admin's real token does", async () => {
    const { user } = await signInWithEmailAndPassword(webAuth('boss'), 'boss@example.dk', PASSWORD)
    const real = await user.getIdToken()
    const claims = JSON.parse(Buffer.from(real.split('.')[1] as string, 'base64url').toString())
    expect(claims.admin).toBe(true)
    const kid = decodeProtectedHeader(real).kid as string
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
    const forgeries = {
      'alg none': signUnsigned({ ...claims, admin: true }),
      'alg none, hand-made': `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ sub: 'boss', admin: true })).toString('base64url')}.`,
      'unknown key, known kid': signJwt(claims, stranger, kid),
      'claims edited after signing': `${real.split('.')[0]}.${Buffer.from(JSON.stringify({ ...claims, sub: 'alice' })).toString('base64url')}.${real.split('.')[2]}`,
    }
    for (const [name, token] of Object.entries(forgeries)) {
      expect([name, await readAs(token, 'admin/secret')]).toEqual([name, 403])
      expect([name, await downloadAs(token, 'private/boss/a.txt')]).toEqual([name, 403])
    }
    expect(await readAs(null, 'admin/secret')).toBe(403)
    expect(await readAs(real, 'admin/secret')).toBe(200)
    expect(await downloadAs(real, 'private/boss/a.txt')).toBe(200)
  })

  test('the keys are published where Google publishes its own, and verify the tokens with jose', async () => {
    const { user } = await signInWithEmailAndPassword(webAuth('alice-jwks'), 'alice@example.dk', PASSWORD)
    const token = await user.getIdToken()
    for (const path of Object.values(KEY_PATHS)) {
      const response = await fetch(authUrl(path))
      expect([path, response.status, response.headers.get('cache-control')]).toEqual([path, 200, 'public, max-age=600'])
      expect(await response.text()).not.toMatch(/PRIVATE KEY|"d":/)
    }
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(authUrl(KEY_PATHS.idJwks))), {
      algorithms: ['RS256'],
      issuer: `https://securetoken.google.com/${PROJECT}`,
      audience: PROJECT,
    })
    expect(payload.sub).toBe(user.uid)
    const certificates = (await (await fetch(authUrl(KEY_PATHS.idCertificates))).json()) as Record<string, string>
    const kid = decodeProtectedHeader(token).kid as string
    const fromCertificate = await importX509(certificates[kid] as string, 'RS256')
    expect((await jwtVerify(token, fromCertificate)).payload.sub).toBe(user.uid)
    // The session set is another key: an ID token does not verify against it.
    const sessionKeys = createRemoteJWKSet(new URL(authUrl(KEY_PATHS.sessionJwks)))
    expect(
      await jwtVerify(token, sessionKeys).then(
        () => 'verified',
        (error) => error.code,
      ),
    ).toBe('ERR_JWKS_NO_MATCHING_KEY')
    const accounts = await fetch(adminUrl(`/identitytoolkit.googleapis.com/v1/projects/${PROJECT}/accounts:batchGet`), {
      headers: OWNER,
    })
    expect(accounts.status).toBe(200)
    expect(await accounts.text()).not.toMatch(/PRIVATE KEY|private_key/)
  })

  test('a restart keeps the keys: tokens and refresh tokens from before still work', async () => {
    const auth = webAuth('alice-restart')
    const { user } = await signInWithEmailAndPassword(auth, 'alice@example.dk', PASSWORD)
    const before = await user.getIdToken()
    const published = emulator.keyRoute('GET', KEY_PATHS.idJwks)?.body
    expect(statSync(join(dataDir, SIGNING_KEYS_FILE)).mode & 0o777).toBe(0o600)
    await emulator.close()
    emulator = await startEmulatorLite(options())
    expect(emulator.keyRoute('GET', KEY_PATHS.idJwks)?.body).toBe(published)
    expect(await readAs(before, 'people/alice')).toBe(200)
    // The new start listens on another free port: refresh over securetoken by hand.
    const response = await fetch(authUrl('/securetoken.googleapis.com/v1/token?key=k'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(user.refreshToken)}`,
    })
    expect(response.status).toBe(200)
    const refreshed = ((await response.json()) as { id_token: string }).id_token
    expect(await readAs(refreshed, 'people/alice')).toBe(200)
  })

  test('rotating the keys while running: tokens of the old key still open what they did, new sign-ins use the new key', async () => {
    const auth = webAuth('alice-rotate')
    const { user } = await signInWithEmailAndPassword(auth, 'alice@example.dk', PASSWORD)
    const before = await user.getIdToken()
    const oldKid = decodeProtectedHeader(before).kid
    emulator.rotateSigningKeys()
    const jwks = (await (await fetch(authUrl(KEY_PATHS.idJwks))).json()) as { keys: { kid: string }[] }
    expect(jwks.keys.map((key) => key.kid)).toHaveLength(2)
    expect(jwks.keys[0]?.kid).toBe(oldKid)
    expect(await readAs(before, 'people/alice')).toBe(200)
    const after = await signInWithEmailAndPassword(webAuth('alice-rotated'), 'alice@example.dk', PASSWORD)
    const fresh = await after.user.getIdToken()
    expect(decodeProtectedHeader(fresh).kid).toBe(jwks.keys[1]?.kid)
    expect(await readAs(fresh, 'people/alice')).toBe(200)
  })

  test('with acceptUnsignedTokens (by choice only), mock tokens are read as the official emulators read them', async () => {
    const lax = await startEmulatorLite({
      ...options(),
      dataDir: undefined,
      inMemory: true,
      acceptUnsignedTokens: true,
    })
    try {
      expect(lax.tokens).toBe('unsigned-accepted')
      expect(emulator.tokens).toBe('signed')
      const mock = signUnsigned({ sub: 'boss', admin: true })
      const status = await fetch(
        `http://127.0.0.1:${lax.firestorePort}/v1/projects/${PROJECT}/databases/(default)/documents/admin/secret`,
        { headers: { authorization: `Bearer ${mock}` } },
      ).then((r) => r.status)
      expect(status).toBe(404)
    } finally {
      await lax.close()
    }
  })
})

test('the CLI says how it treats tokens, never prints a key, and --rotate-signing-key keeps the old key published', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-lite-identity-cli-'))
  const args = ['--firestore-port', '0', '--storage-port', '0', '--auth-port', String(await freePort()), '--data', dir]
  try {
    let cli = await startCliProcess(args)
    expect(cli.output()).toMatch(/emulator-lite ready .* tokens=signed[ \n]/)
    const kids = () =>
      (JSON.parse(readFileSync(join(dir, SIGNING_KEYS_FILE), 'utf8')).id as { kid: string; state: string }[]).map(
        (key) => key.state,
      )
    expect(kids()).toEqual(['active'])
    cli.child.kill('SIGTERM')
    await once(cli.child, 'exit')
    cli = await startCliProcess([...args, '--rotate-signing-key', '--accept-unsigned-tokens'])
    expect(cli.output()).toMatch(/tokens=unsigned-accepted[ \n]/)
    expect(kids()).toEqual(['retired', 'active'])
    const keyFile = readFileSync(join(dir, SIGNING_KEYS_FILE), 'utf8')
    const privateKey = (JSON.parse(keyFile).id[1] as { privateKey: string }).privateKey
    expect(cli.output()).not.toContain('PRIVATE KEY')
    expect(cli.output()).not.toContain(privateKey.split('\n')[1])
    cli.child.kill('SIGTERM')
    await once(cli.child, 'exit')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
