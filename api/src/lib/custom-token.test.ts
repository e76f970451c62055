import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeProtectedHeader, jwtVerify } from 'jose'
import { afterAll, expect, test } from 'vitest'
import { CUSTOM_TOKEN_AUDIENCE, customTokenSigner, readServiceAccount, type ServiceAccount } from './custom-token.ts'

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const ACCOUNT: ServiceAccount = {
  type: 'service_account',
  project_id: 'demo-bosted',
  private_key_id: 'key-1',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  client_email: 'emulator-lite-admin@emulator-lite.iam.gserviceaccount.com',
}
const NOW_MS = Date.parse('2026-11-25T12:00:00.700Z')
const dir = mkdtempSync(join(tmpdir(), 'custom-token-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a custom token is signed as firebase-admin signs one in production', async () => {
  const token = await customTokenSigner(ACCOUNT, { now: () => NOW_MS })('user-1')
  expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', typ: 'JWT' })
  const { payload } = await jwtVerify(token, publicKey, {
    algorithms: ['RS256'],
    currentDate: new Date(NOW_MS),
  })
  const iat = Math.floor(NOW_MS / 1000)
  expect(payload).toEqual({
    iss: ACCOUNT.client_email,
    sub: ACCOUNT.client_email,
    aud: CUSTOM_TOKEN_AUDIENCE,
    iat,
    exp: iat + 3600,
    uid: 'user-1',
  })
})

test('a custom token by another key does not verify with the account key', async () => {
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const token = await customTokenSigner({
    ...ACCOUNT,
    private_key: other.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  })('user-1')
  await expect(jwtVerify(token, publicKey)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' })
})

test('a uid must have 1 to 128 characters', async () => {
  const sign = customTokenSigner(ACCOUNT)
  await expect(sign('')).rejects.toThrow(/uid/)
  await expect(sign('u'.repeat(129))).rejects.toThrow(/uid/)
  await expect(sign('u'.repeat(128))).resolves.toMatch(/^ey/)
})

test('the service-account file is read and checked, and a bad one is named without its key', () => {
  const good = join(dir, 'service-account.json')
  writeFileSync(good, JSON.stringify({ ...ACCOUNT, client_id: '1', token_uri: 'http://x' }))
  expect(readServiceAccount(good)).toEqual(ACCOUNT)

  const notJson = join(dir, 'not-json.json')
  writeFileSync(notJson, 'nope')
  expect(() => readServiceAccount(notJson)).toThrow(/not-json\.json could not be read as JSON/)
  expect(() => readServiceAccount(join(dir, 'missing.json'))).toThrow(/missing\.json/)

  const wrong = join(dir, 'wrong.json')
  writeFileSync(wrong, JSON.stringify({ ...ACCOUNT, type: 'user', client_email: undefined }))
  let message = ''
  try {
    readServiceAccount(wrong)
  } catch (error) {
    message = (error as Error).message
  }
  expect(message).toMatch(/wrong\.json is not a service-account key \(check: type, client_email\)/)
  expect(message).not.toContain('PRIVATE KEY')
})
