import { createHash, randomBytes } from 'node:crypto'
import type Database from 'better-sqlite3'
import type { AuthUser } from './auth-store.ts'
import { assert } from './errors.ts'
import type { MailMessage } from './smtp.ts'

/** How long a password-reset code works, as Firebase's (one hour). */
export const OOB_CODE_LIFETIME_MS = 60 * 60 * 1000
const OUTBOX_SIZE = 100
/** Codes an account gets per hour at most (Firebase answers RESET_PASSWORD_EXCEED_LIMIT past its own quota). */
export const OOB_CODES_PER_HOUR = 5

export type OobOptions = {
  /** Sends a mail (the pilot's SMTP relay); without it the codes are shown on the admin listener only. */
  mailer?: ((message: MailMessage) => Promise<void>) | undefined
  /** The page a reset link opens; `?oobCode=…` is appended (default http://localhost/reset-password). */
  resetUrl?: string | undefined
  /** The clock (tests move it past a code's hour). */
  now?: () => number
}

export type OobRow = {
  project: string
  local_id: string
  email: string
  request_type: string
  expires_at: number
  used_at: number | null
}

/** A code as the official emulator's `/emulator/v1/projects/{p}/oobCodes` lists it. */
export type OobListing = { email: string; requestType: string; oobCode: string; oobLink: string }

/**
 * Out-of-band codes (password reset): random 256-bit codes, stored only as their SHA-256 in the
 * emulator's SQLite file, working once and for one hour. Without a mailer the last codes are kept in
 * memory (never on disk) for the admin listener's oobCodes endpoint, as the official emulator lists them.
 */
export class OobCodes {
  readonly #statements
  readonly #mailer: OobOptions['mailer']
  readonly #resetUrl: string
  readonly #now: () => number
  readonly #outbox: (OobListing & { project: string })[] = []

  constructor(db: Database.Database, options: OobOptions = {}) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS auth_oob_codes (
        hash TEXT PRIMARY KEY,
        project TEXT NOT NULL,
        local_id TEXT NOT NULL,
        email TEXT NOT NULL,
        request_type TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS auth_oob_codes_user ON auth_oob_codes (project, local_id);
    `)
    this.#statements = {
      insert: db.prepare<[string, string, string, string, string, number, number]>(
        'INSERT INTO auth_oob_codes (hash, project, local_id, email, request_type, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      get: db.prepare<[string], OobRow>(
        'SELECT project, local_id, email, request_type, expires_at, used_at FROM auth_oob_codes WHERE hash = ?',
      ),
      use: db.prepare<[number, string, number]>(
        'UPDATE auth_oob_codes SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ?',
      ),
      useAll: db.prepare<[number, string, string]>(
        'UPDATE auth_oob_codes SET used_at = ? WHERE project = ? AND local_id = ? AND used_at IS NULL',
      ),
      prune: db.prepare<[number]>('DELETE FROM auth_oob_codes WHERE expires_at < ?'),
      recent: db.prepare<[string, string, number], { n: number }>(
        'SELECT count(*) AS n FROM auth_oob_codes WHERE project = ? AND local_id = ? AND created_at > ?',
      ),
    }
    this.#mailer = options.mailer
    this.#resetUrl = options.resetUrl ?? 'http://localhost/reset-password'
    this.#now = options.now ?? Date.now
  }

  get sendsMail(): boolean {
    return this.#mailer !== undefined
  }

  /**
   * A new code for the user; its link. At most OOB_CODES_PER_HOUR an account (RESET_PASSWORD_EXCEED_LIMIT),
   * so nobody fills a colleague's inbox through the public endpoint. Codes a day past their expiry are forgotten.
   */
  create(project: string, user: AuthUser & { email: string }, requestType: string): OobListing {
    const code = randomBytes(32).toString('base64url')
    const now = this.#now()
    this.#statements.prune.run(now - 86_400_000)
    const recent = this.#statements.recent.get(project, user.localId, now - OOB_CODE_LIFETIME_MS)?.n ?? 0
    assert(recent < OOB_CODES_PER_HOUR, 'RESET_PASSWORD_EXCEED_LIMIT')
    this.#statements.insert.run(
      hash(code),
      project,
      user.localId,
      user.email,
      requestType,
      now,
      now + OOB_CODE_LIFETIME_MS,
    )
    const url = new URL(this.#resetUrl)
    url.searchParams.set('mode', 'resetPassword')
    url.searchParams.set('oobCode', code)
    const listing = { email: user.email, requestType, oobCode: code, oobLink: url.toString() }
    if (!this.#mailer) {
      this.#outbox.push({ ...listing, project })
      if (this.#outbox.length > OUTBOX_SIZE) this.#outbox.shift()
    }
    return listing
  }

  /** The code's record while it works; INVALID_OOB_CODE (unknown or used) or EXPIRED_OOB_CODE otherwise. */
  find(project: string, code: string): OobRow {
    const row = this.#statements.get.get(hash(code))
    assert(row && row.project === project && row.used_at === null, 'INVALID_OOB_CODE')
    assert(row.expires_at > this.#now(), 'EXPIRED_OOB_CODE')
    return row
  }

  /** Uses the code up (once: a second caller gets INVALID_OOB_CODE); its record. */
  consume(project: string, code: string): OobRow {
    const row = this.find(project, code)
    const now = this.#now()
    assert(this.#statements.use.run(now, hash(code), now).changes === 1, 'INVALID_OOB_CODE')
    return row
  }

  /** Ends every outstanding code of a user (after a reset). */
  consumeAll(project: string, localId: string): void {
    this.#statements.useAll.run(this.#now(), project, localId)
  }

  async send(message: MailMessage): Promise<void> {
    await this.#mailer?.(message)
  }

  /** The codes issued without a mailer, newest last (the admin listener's oobCodes). */
  listing(project: string): OobListing[] {
    return this.#outbox.filter((entry) => entry.project === project).map(({ project: _project, ...listing }) => listing)
  }
}

const hash = (code: string) => createHash('sha256').update(code).digest('hex')
