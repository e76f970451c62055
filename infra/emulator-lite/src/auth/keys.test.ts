import { createPublicKey, X509Certificate } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { checkFirebaseJwt, ID_TOKEN_ISSUER, signJwt } from './identity.ts'
import {
  loadServiceAccount,
  RETIRED_KEY_WINDOW_SECONDS,
  SERVICE_ACCOUNT_EMAIL,
  SERVICE_ACCOUNT_FILE,
  SIGNING_KEYS_FILE,
  SigningKeys,
} from './keys.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-lite-keys-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const modeOf = (path: string) => statSync(path).mode & 0o777

/** An ID token of `project` signed by the active `id` key at `nowSeconds`. */
function idToken(keys: SigningKeys, nowSeconds: number, project = 'demo-p'): string {
  const { kid, privateKey } = keys.active('id')
  return signJwt(
    {
      iss: `${ID_TOKEN_ISSUER}${project}`,
      aud: project,
      sub: 'u1',
      user_id: 'u1',
      auth_time: nowSeconds,
      iat: nowSeconds,
      exp: nowSeconds + 3600,
    },
    privateKey,
    kid,
  )
}

describe('signing keys', () => {
  test('are created once, written 0600, and a restart reads the same kids back', () => {
    const first = new SigningKeys({ dataDir: dir })
    const path = join(dir, SIGNING_KEYS_FILE)
    expect(modeOf(path)).toBe(0o600)
    const again = new SigningKeys({ dataDir: dir })
    expect(again.active('id').kid).toBe(first.active('id').kid)
    expect(again.active('session').kid).toBe(first.active('session').kid)
    const now = Math.floor(Date.now() / 1000)
    expect(checkFirebaseJwt(idToken(first, now), again, 'id', ID_TOKEN_ISSUER, ['demo-p'], Date.now()).ok).toBe(true)
    const file = JSON.parse(readFileSync(path, 'utf8'))
    expect(file.id[0]).toMatchObject({ kid: first.active('id').kid, state: 'active', retiredAt: null })
    expect(file.id[0].privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/)
  })

  test('the two sets never share a kid, and a kid of one set is unknown to the other', () => {
    const keys = new SigningKeys()
    const id = keys.active('id').kid
    const session = keys.active('session').kid
    expect(id).toMatch(/^[0-9a-f]{40}$/)
    expect(id).not.toBe(session)
    expect(keys.publicKey('session', id)).toBeUndefined()
    expect(keys.publicKey('id', session)).toBeUndefined()
  })

  test('a key file others could read is tightened to 0600 with a warning that names no secret', () => {
    new SigningKeys({ dataDir: dir })
    const path = join(dir, SIGNING_KEYS_FILE)
    chmodSync(path, 0o644)
    const warnings: string[] = []
    new SigningKeys({ dataDir: dir, warn: (message) => warnings.push(message) })
    expect(modeOf(path)).toBe(0o600)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('--rotate-signing-key')
    expect(warnings[0]).not.toContain('PRIVATE KEY')
  })

  test('rotation: old tokens verify until their window ends, new tokens use the new key, and it survives a restart', () => {
    let now = Date.UTC(2026, 10, 25, 12)
    const clock = () => now
    const keys = new SigningKeys({ dataDir: dir, now: clock })
    const oldKid = keys.active('id').kid
    const oldToken = idToken(keys, now / 1000)
    keys.rotate()
    const newKid = keys.active('id').kid
    expect(newKid).not.toBe(oldKid)
    expect(keys.list('id')).toEqual([
      { kid: oldKid, state: 'retired' },
      { kid: newKid, state: 'active' },
    ])
    const newToken = idToken(keys, now / 1000)
    expect(JSON.parse(Buffer.from(newToken.split('.')[0] as string, 'base64url').toString()).kid).toBe(newKid)
    const verify = (token: string, keySet: SigningKeys) =>
      checkFirebaseJwt(token, keySet, 'id', ID_TOKEN_ISSUER, ['demo-p'], now)
    expect(verify(oldToken, keys).ok).toBe(true)
    // A restart within the window keeps the retired key published.
    const restarted = new SigningKeys({ dataDir: dir, now: clock })
    expect(restarted.active('id').kid).toBe(newKid)
    expect(Object.keys(restarted.certificates('id'))).toEqual([oldKid, newKid])
    now += 3599_000
    expect(verify(oldToken, restarted).ok).toBe(true)
    // Past the token's exp it is refused as expired; past the window the key itself is gone.
    now += RETIRED_KEY_WINDOW_SECONDS.id * 1000
    expect(verify(oldToken, restarted)).toEqual({ ok: false, reason: 'kid' })
    expect(restarted.jwks('id').keys.map((key) => key.kid)).toEqual([newKid])
    // The session set keeps its retired key for 14 days.
    expect(restarted.list('session')).toHaveLength(2)
    const reloaded = new SigningKeys({ dataDir: dir, now: clock })
    expect(reloaded.list('id')).toEqual([{ kid: newKid, state: 'active' }])
    expect(JSON.parse(readFileSync(join(dir, SIGNING_KEYS_FILE), 'utf8')).id).toHaveLength(1)
  })

  test('published keys: JWKS fields as Google serves them, certificates that carry the same public key', () => {
    const keys = new SigningKeys()
    const [jwk] = keys.jwks('id').keys
    expect(Object.keys(jwk ?? {}).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use'])
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' })
    const pem = keys.certificates('id')[jwk?.kid as string] as string
    const cert = new X509Certificate(pem)
    expect(cert.subject).toBe('CN=securetoken.system.gserviceaccount.com')
    expect(cert.verify(cert.publicKey)).toBe(true)
    expect(cert.publicKey.equals(createPublicKey({ key: jwk as never, format: 'jwk' }))).toBe(true)
    expect(JSON.stringify(keys.jwks('id'))).not.toContain('"d"')
  })
})

describe('service account', () => {
  test('is created 0600 in the Google key-file shape and read back unchanged', () => {
    const created = loadServiceAccount('demo-p', { dataDir: dir })
    const path = join(dir, SERVICE_ACCOUNT_FILE)
    expect(modeOf(path)).toBe(0o600)
    expect(created.key).toMatchObject({
      type: 'service_account',
      project_id: 'demo-p',
      client_email: SERVICE_ACCOUNT_EMAIL,
      token_uri: 'https://oauth2.googleapis.com/token',
    })
    expect(created.key.private_key_id).toMatch(/^[0-9a-f]{40}$/)
    const again = loadServiceAccount('other', { dataDir: dir })
    expect(again.key).toEqual(created.key)
    const cert = new X509Certificate(again.certificates[again.key.private_key_id] as string)
    expect(cert.publicKey.equals(again.publicKey)).toBe(true)
  })

  test('without a data directory it lives in memory only', () => {
    const a = loadServiceAccount('demo-p')
    const b = loadServiceAccount('demo-p')
    expect(a.key.private_key_id).not.toBe(b.key.private_key_id)
  })
})
