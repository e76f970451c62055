import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const ADMIN_SECRET_FILE = 'admin-secret'
const SECRET_PATTERN = /^elsec_[A-Za-z0-9_-]{43}$/

/** A new admin secret: 32 random bytes, base64url, prefixed `elsec_`. */
export function newAdminSecret(): string {
  return `elsec_${randomBytes(32).toString('base64url')}`
}

/**
 * The admin secret of a data directory: read from `admin-secret` (mode 0600), or created there on
 * first start, so tools that read the file keep working across restarts. Never logged.
 */
export function loadAdminSecret(dataDir: string): { secret: string; file: string } {
  const file = join(dataDir, ADMIN_SECRET_FILE)
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim()
    if (!SECRET_PATTERN.test(secret)) throw new Error(`${file} does not hold an emulator-lite admin secret`)
    chmodSync(file, 0o600)
    return { secret, file }
  }
  mkdirSync(dataDir, { recursive: true })
  const secret = newAdminSecret()
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' })
  return { secret, file }
}
