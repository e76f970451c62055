import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto'

/** The audience firebase-admin's createCustomToken writes (docs/wire/auth.md#custom-tokens-from-admin). */
export const CUSTOM_TOKEN_AUDIENCE =
  'https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit'
export const ID_TOKEN_LIFETIME_SECONDS = 3600
/** The fake project number the official emulator answers in securetoken and GET v1/projects. */
export const PROJECT_NUMBER = '12345'

/** A new opaque refresh token: 256 random bits, base64url. Only its hash is kept. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url')
}

/** The key a refresh token is stored under (SHA-256, hex): the store never holds a usable token. */
export function refreshTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export type RefreshRecord = {
  localId: string
  provider: string
  extraClaims: Record<string, unknown>
  projectId: string
}

/**
 * The official emulator's stateless refresh token (base64 JSON): anyone can write one for any
 * account, so it is read only with `acceptUnsignedTokens` (and never issued).
 */
export function encodeRefreshToken(record: RefreshRecord): string {
  return Buffer.from(
    JSON.stringify({
      _AuthEmulatorRefreshToken: 'DO NOT MODIFY',
      localId: record.localId,
      provider: record.provider,
      extraClaims: record.extraClaims,
      projectId: record.projectId,
    }),
  ).toString('base64')
}

/** The legacy token's record, or null when `token` is not one. */
export function decodeRefreshToken(token: string): RefreshRecord | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8'))
  } catch {
    return null
  }
  if (
    !isObject(parsed) ||
    !('_AuthEmulatorRefreshToken' in parsed) ||
    typeof parsed.localId !== 'string' ||
    typeof parsed.projectId !== 'string' ||
    typeof parsed.provider !== 'string'
  ) {
    return null
  }
  return {
    localId: parsed.localId,
    provider: parsed.provider,
    extraClaims: isObject(parsed.extraClaims) ? parsed.extraClaims : {},
    projectId: parsed.projectId,
  }
}

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** 28 characters from [A-Za-z0-9], like the official emulator's generated uids. */
export function randomLocalId(length = 28): string {
  let id = ''
  for (let i = 0; i < length; i++) id += ID_CHARS.charAt(randomInt(ID_CHARS.length))
  return id
}

// scrypt's cost is recorded in each hash so it can change without invalidating stored ones.
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 }

function derive(password: string, salt: Buffer, params: typeof SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password,
      salt,
      params.keylen,
      { N: params.N, r: params.r, p: params.p, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    )
  })
}

/** Salted scrypt hash: `salt` is base64, `passwordHash` is `scrypt$N$r$p$<base64 key>`. */
export async function hashPassword(password: string): Promise<{ passwordHash: string; salt: string }> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, SCRYPT)
  return {
    passwordHash: `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${key.toString('base64')}`,
    salt: salt.toString('base64'),
  }
}

export async function verifyPassword(password: string, passwordHash: string, salt: string): Promise<boolean> {
  const parts = passwordHash.split('$')
  if (parts.length !== 5 || parts[0] !== 'scrypt') return false
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  const expected = Buffer.from(parts[4] as string, 'base64')
  if (!Number.isInteger(N) || !Number.isInteger(r) || !Number.isInteger(p) || expected.length === 0) return false
  try {
    const key = await derive(password, Buffer.from(salt, 'base64'), { N, r, p, keylen: expected.length })
    return timingSafeEqual(key, expected)
  } catch {
    return false
  }
}

/** The plaintext inside an official emulator export's `fakeHash:salt=…:password=…` hash. */
export function passwordOfFakeHash(passwordHash: string, salt: string | undefined): string | null {
  const prefix = `fakeHash:salt=${salt ?? ''}:password=`
  return passwordHash.startsWith(prefix) ? passwordHash.slice(prefix.length) : null
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
