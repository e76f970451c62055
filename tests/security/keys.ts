// What an operator with shell access to the server can read: emulator-lite's admin secret and its
// signing keys. The attack suite uses them to read back the truth and to make tokens that are
// really signed but wrong in one claim (expired, another project), as emulator-lite never would.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export type SigningKey = { kid: string; privateKey: KeyObject; publicPem: string }

export function adminSecretOf(emulatorDataDir: string): string {
  return readFileSync(join(emulatorDataDir, 'admin-secret'), 'utf8').trim()
}

type StoredKey = { kid: string; privateKey?: string; privatePem?: string; state?: string }

/** The active key of the ID-token set in signing-keys.json. */
export function activeIdKey(emulatorDataDir: string): SigningKey {
  const file = JSON.parse(readFileSync(join(emulatorDataDir, 'signing-keys.json'), 'utf8')) as {
    id?: StoredKey[] | { keys?: StoredKey[] }
  }
  const set = Array.isArray(file.id) ? file.id : (file.id?.keys ?? [])
  const active = set.find((key) => key.state === 'active') ?? set[0]
  const pem = active?.privateKey ?? active?.privatePem
  if (!active || !pem) throw new Error('signing-keys.json has no active ID-token key')
  const privateKey = createPrivateKey(pem)
  return {
    kid: active.kid,
    privateKey,
    publicPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
  }
}
