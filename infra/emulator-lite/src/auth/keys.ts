import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  randomInt,
} from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { selfSignedCertificate } from './x509.ts'

/** `id` signs ID tokens, `session` session cookies; a kid is never in both (docs/wire/identity.md#keys-and-rotation). */
export type KeySetName = 'id' | 'session'
export const KEY_SETS: readonly KeySetName[] = ['id', 'session']

/** How long a retired key stays published: its tokens' lifetime plus 5 minutes of clock skew. */
export const RETIRED_KEY_WINDOW_SECONDS: Record<KeySetName, number> = {
  id: 3600 + 300,
  session: 14 * 24 * 3600 + 300,
}

export type PublicJwk = { kty: 'RSA'; kid: string; n: string; e: string; alg: 'RS256'; use: 'sig' }

/** One key as kept in `signing-keys.json`. */
export type SigningKeyRecord = {
  kid: string
  /** PKCS#8 PEM. */
  privateKey: string
  publicJwk: PublicJwk
  state: 'active' | 'retired'
  createdAt: string
  retiredAt: string | null
}

type KeysFile = { version: 1; id: SigningKeyRecord[]; session: SigningKeyRecord[] }

type LoadedKey = { record: SigningKeyRecord; privateKey: KeyObject; publicKey: KeyObject; certificate?: string }

export const SIGNING_KEYS_FILE = 'signing-keys.json'
export const SERVICE_ACCOUNT_FILE = 'service-account.json'
export const SERVICE_ACCOUNT_EMAIL = 'emulator-lite-admin@emulator-lite.iam.gserviceaccount.com'

/** Common names of the published certificates, after the Google accounts whose keys they stand for. */
const CERTIFICATE_NAMES: Record<KeySetName, string> = {
  id: 'securetoken.system.gserviceaccount.com',
  session: 'session-cookies.emulator-lite.iam.gserviceaccount.com',
}

// --- Secret files: written whole (temp file + rename) with mode 0600 and checked after writing.

/** Writes `text` to `path` readable by its owner only; throws when the mode cannot be made 0600. */
export function writeSecretFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.tmp`
  writeFileSync(temp, text, { mode: 0o600 })
  chmodSync(temp, 0o600) // the umask cannot widen 0600, but a pre-existing temp file keeps its mode
  renameSync(temp, path)
  assertPrivate(path)
}

function assertPrivate(path: string): void {
  const mode = statSync(path).mode & 0o777
  if ((mode & 0o077) !== 0)
    throw new Error(`${path} has mode ${mode.toString(8)}; it holds a private key and must be 600`)
}

/**
 * Reads a secret file. One that the group or others may read is tightened to 0600 with a warning
 * (naming the file, never its content): the key may have been read, so the warning says how to
 * replace it. When the mode cannot be changed, start-up stops.
 */
export function readSecretFile(path: string, warn: (message: string) => void = console.warn): string {
  const mode = statSync(path).mode & 0o777
  if ((mode & 0o077) !== 0) {
    try {
      chmodSync(path, 0o600)
    } catch (error) {
      throw new Error(
        `${path} has mode ${mode.toString(8)} and cannot be made 600 (${(error as Error).message}); refusing to use it`,
      )
    }
    assertPrivate(path)
    warn(
      `emulator-lite: ${path} was readable by others (mode ${mode.toString(8)}); changed to 600. If someone could read it, replace the key (--rotate-signing-key, or delete service-account.json).`,
    )
  }
  return readFileSync(path, 'utf8')
}

// --- Signing keys

function newKey(now: Date): SigningKeyRecord {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const jwk = publicKey.export({ format: 'jwk' }) as { n: string; e: string }
  // RFC 7638 thumbprint, shortened to the 40 hex digits Google's kids have.
  const kid = createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('hex')
    .slice(0, 40)
  return {
    kid,
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    publicJwk: { kty: 'RSA', kid, n: jwk.n, e: jwk.e, alg: 'RS256', use: 'sig' },
    state: 'active',
    createdAt: now.toISOString(),
    retiredAt: null,
  }
}

function load(record: SigningKeyRecord): LoadedKey {
  const privateKey = createPrivateKey(record.privateKey)
  return { record, privateKey, publicKey: createPublicKey(privateKey) }
}

export type SigningKeysOptions = {
  /** Where `signing-keys.json` lives; without it (in-memory mode) the keys live as long as the process. */
  dataDir?: string
  now?: () => number
  warn?: (message: string) => void
}

/**
 * The two key sets of emulator-lite's Auth. Created on first start, kept in `<dataDir>/signing-keys.json`
 * (0600) so a restart signs nobody out; `rotate()` makes a new active key per set and keeps the old
 * one published until its last token has expired.
 */
export class SigningKeys {
  private readonly sets: Record<KeySetName, LoadedKey[]>
  private readonly path: string | null
  private readonly now: () => number

  constructor(options: SigningKeysOptions = {}) {
    this.now = options.now ?? Date.now
    this.path = options.dataDir ? join(options.dataDir, SIGNING_KEYS_FILE) : null
    let file: KeysFile | null = null
    if (this.path && existsSync(this.path)) {
      const parsed = JSON.parse(readSecretFile(this.path, options.warn)) as KeysFile
      if (parsed.version !== 1 || !Array.isArray(parsed.id) || !Array.isArray(parsed.session))
        throw new Error(`${this.path}: not an emulator-lite signing key file`)
      file = parsed
    }
    this.sets = { id: (file?.id ?? []).map(load), session: (file?.session ?? []).map(load) }
    const dropped = this.prune()
    // On disk every set gets its key at the first start; in memory (tests) a set's key is made when
    // first needed, as an RSA key costs 0.1-0.5 s of CPU and most in-memory runs never mint a cookie.
    const created = this.path ? KEY_SETS.map((set) => this.ensureActive(set)).some(Boolean) : false
    if (created || dropped) this.save()
  }

  /** The key that signs new tokens of `set`. */
  active(set: KeySetName): { kid: string; privateKey: KeyObject } {
    if (this.ensureActive(set)) this.save()
    const key = this.sets[set].findLast((candidate) => candidate.record.state === 'active') as LoadedKey
    return { kid: key.record.kid, privateKey: key.privateKey }
  }

  /** Makes an active key for `set` when it has none; true when it made one. */
  private ensureActive(set: KeySetName): boolean {
    if (this.sets[set].some((key) => key.record.state === 'active')) return false
    this.sets[set].push(load(newKey(new Date(this.now()))))
    return true
  }

  /** The public key of `kid` in `set` while it is published (active, or retired within its window). */
  publicKey(set: KeySetName, kid: string): KeyObject | undefined {
    const key = this.sets[set].find((candidate) => candidate.record.kid === kid)
    if (!key || this.expired(set, key)) return undefined
    return key.publicKey
  }

  /** `{keys: [JWK]}` of `set`: what the JWKS endpoints serve. */
  jwks(set: KeySetName): { keys: PublicJwk[] } {
    return { keys: this.published(set).map((key) => key.record.publicJwk) }
  }

  /** `{kid: PEM certificate}` of `set`: what the x509 endpoints serve. */
  certificates(set: KeySetName): Record<string, string> {
    const map: Record<string, string> = {}
    for (const key of this.published(set)) {
      key.certificate ??= selfSignedCertificate({
        publicKey: key.publicKey,
        privateKey: key.privateKey,
        commonName: CERTIFICATE_NAMES[set],
        notBefore: new Date(key.record.createdAt),
        notAfter: new Date(Date.parse(key.record.createdAt) + 10 * 365 * 86_400_000),
      })
      map[key.record.kid] = key.certificate
    }
    return map
  }

  /** kids of `set`, oldest first, with their state (for tests and the ADR's rotation story). */
  list(set: KeySetName): { kid: string; state: SigningKeyRecord['state'] }[] {
    return this.published(set).map((key) => ({ kid: key.record.kid, state: key.record.state }))
  }

  /** A new active key for each set; the previous ones are retired, published until their tokens expire. */
  rotate(): void {
    const now = new Date(this.now())
    for (const set of KEY_SETS) {
      for (const key of this.sets[set]) {
        if (key.record.state === 'active')
          key.record = { ...key.record, state: 'retired', retiredAt: now.toISOString() }
      }
      this.sets[set].push(load(newKey(now)))
    }
    this.prune()
    this.save()
  }

  private published(set: KeySetName): LoadedKey[] {
    if (this.ensureActive(set)) this.save()
    return this.sets[set].filter((key) => !this.expired(set, key))
  }

  private expired(set: KeySetName, key: LoadedKey): boolean {
    const retiredAt = key.record.retiredAt
    return (
      key.record.state === 'retired' &&
      retiredAt !== null &&
      Date.parse(retiredAt) + RETIRED_KEY_WINDOW_SECONDS[set] * 1000 <= this.now()
    )
  }

  /** Forgets retired keys whose window has passed; true when one was dropped. */
  private prune(): boolean {
    let dropped = false
    for (const set of KEY_SETS) {
      const kept = this.sets[set].filter((key) => !this.expired(set, key))
      dropped ||= kept.length !== this.sets[set].length
      this.sets[set] = kept
    }
    return dropped
  }

  private save(): void {
    if (!this.path) return
    const file: KeysFile = {
      version: 1,
      id: this.sets.id.map((key) => key.record),
      session: this.sets.session.map((key) => key.record),
    }
    writeSecretFile(this.path, `${JSON.stringify(file, null, 2)}\n`)
  }
}

// --- The service account whose custom tokens emulator-lite trusts

/** A Google service-account key file, as the api and the seed read it (EMULATOR_SERVICE_ACCOUNT_FILE). */
export type ServiceAccountKey = {
  type: 'service_account'
  project_id: string
  private_key_id: string
  private_key: string
  client_email: string
  client_id: string
  auth_uri: string
  token_uri: string
}

export type TrustedServiceAccount = {
  key: ServiceAccountKey
  publicKey: KeyObject
  /** `{private_key_id: PEM certificate}`, as Google publishes a service account's keys. */
  certificates: Record<string, string>
}

function newServiceAccount(projectId: string): ServiceAccountKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  let clientId = String(randomInt(1, 10))
  for (let i = 0; i < 20; i++) clientId += String(randomInt(10))
  return {
    type: 'service_account',
    project_id: projectId,
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    client_email: SERVICE_ACCOUNT_EMAIL,
    client_id: clientId,
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
  }
}

/**
 * The service account of `<dataDir>/service-account.json` (created 0600 on first start), or a new
 * one in memory without a data directory.
 */
export function loadServiceAccount(
  projectId: string,
  options: { dataDir?: string; warn?: (message: string) => void } = {},
): TrustedServiceAccount {
  const path = options.dataDir ? join(options.dataDir, SERVICE_ACCOUNT_FILE) : null
  if (!path) {
    // In memory the key is made when first needed (see SigningKeys).
    let made: TrustedServiceAccount | undefined
    const get = () => {
      made ??= trusted(newServiceAccount(projectId))
      return made
    }
    return {
      get key() {
        return get().key
      },
      get publicKey() {
        return get().publicKey
      },
      get certificates() {
        return get().certificates
      },
    }
  }
  let key: ServiceAccountKey
  if (existsSync(path)) {
    key = JSON.parse(readSecretFile(path, options.warn)) as ServiceAccountKey
    if (key.type !== 'service_account' || typeof key.private_key !== 'string' || !key.private_key_id)
      throw new Error(`${path}: not a service account key file`)
  } else {
    key = newServiceAccount(projectId)
    writeSecretFile(path, `${JSON.stringify(key, null, 2)}\n`)
  }
  return trusted(key)
}

function trusted(key: ServiceAccountKey): TrustedServiceAccount {
  const privateKey = createPrivateKey(key.private_key)
  const publicKey = createPublicKey(privateKey)
  const certificate = selfSignedCertificate({
    publicKey,
    privateKey,
    commonName: key.client_email,
    notBefore: new Date(Date.UTC(2020, 0, 1)),
    notAfter: new Date(Date.UTC(2099, 11, 31)),
  })
  return { key, publicKey, certificates: { [key.private_key_id]: certificate } }
}
