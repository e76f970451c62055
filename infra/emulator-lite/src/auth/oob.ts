import { createHash, randomBytes } from 'node:crypto'
import type Database from 'better-sqlite3'
import type { AuthUser } from './auth-store.ts'
import { AuthError, assert } from './errors.ts'
import { type AuthContext, applyFields, type Body, checkPasswordLength, str, throttleKey } from './operations.ts'
import type { MailMessage } from './smtp.ts'
import { hashPassword } from './tokens.ts'

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

type OobRow = {
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

/** The Danish mail with the reset link (the product's language; the app's /reset-password page opens it). */
function resetMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Nulstil din adgangskode til Bosted',
    text: [
      'Hej',
      '',
      'Nogen (forhåbentlig dig) har bedt om at nulstille adgangskoden til din konto i Bosted.',
      'Åbn linket herunder for at vælge en ny adgangskode. Linket virker i en time og kun én gang:',
      '',
      link,
      '',
      'Har du ikke bedt om det, kan du se bort fra denne mail. Din adgangskode er ikke ændret.',
    ].join('\n'),
  }
}

function oobCodes(ctx: AuthContext): OobCodes {
  if (!ctx.oob) throw new AuthError('OPERATION_NOT_ALLOWED')
  return ctx.oob
}

/**
 * accounts:sendOobCode, PASSWORD_RESET only (wire reference §3): a code for the account of `email`,
 * mailed with its link where a mailer is configured. `returnOobLink` (privileged callers only)
 * answers the code and link instead of sending them.
 */
export async function sendOobCode(ctx: AuthContext, body: Body) {
  const codes = oobCodes(ctx)
  const requestType = str(body, 'requestType')
  assert(requestType && requestType !== 'OOB_REQ_TYPE_UNSPECIFIED', 'MISSING_REQ_TYPE')
  const returnOobLink = body.returnOobLink === true
  if (returnOobLink) assert(ctx.privileged, 'INSUFFICIENT_PERMISSION')
  if (requestType !== 'PASSWORD_RESET') {
    throw new AuthError(
      `${requestType} is not implemented in emulator-lite's Auth.`,
      501,
      'NOT_IMPLEMENTED',
      'unimplemented',
    )
  }
  const emailIn = str(body, 'email')
  assert(emailIn, 'MISSING_EMAIL')
  const email = emailIn.toLowerCase()
  const user = ctx.store.getByEmail(ctx.project, email)
  const privacy = ctx.store.config(ctx.project).emailPrivacyConfig.enableImprovedEmailPrivacy
  if (!user && privacy) return { kind: 'identitytoolkit#GetOobConfirmationCodeResponse', email }
  assert(user?.email, 'EMAIL_NOT_FOUND')
  const listing = codes.create(ctx.project, { ...user, email: user.email }, requestType)
  if (returnOobLink) {
    return {
      kind: 'identitytoolkit#GetOobConfirmationCodeResponse',
      email,
      oobCode: listing.oobCode,
      oobLink: listing.oobLink,
    }
  }
  if (codes.sendsMail) {
    try {
      await codes.send(resetMail(user.email, listing.oobLink))
    } catch (error) {
      // The caller learns nothing of the relay; the operator reads why in the log.
      console.error(`emulator-lite: the password-reset mail could not be sent: ${(error as Error).message}`)
    }
  }
  return { kind: 'identitytoolkit#GetOobConfirmationCodeResponse', email }
}

/**
 * accounts:resetPassword: without `newPassword` it says whose code it is (the web's check of a link);
 * with it, uses the code up, sets the password, marks the email verified and ends every session and
 * every other code of the account.
 */
export async function resetPassword(ctx: AuthContext, body: Body) {
  const codes = oobCodes(ctx)
  const oobCode = str(body, 'oobCode')
  assert(oobCode, 'MISSING_OOB_CODE')
  const newPassword = str(body, 'newPassword')
  const answer = (row: OobRow) => ({
    kind: 'identitytoolkit#ResetPasswordResponse',
    requestType: row.request_type,
    email: row.email,
  })
  if (!newPassword) return answer(codes.find(ctx.project, oobCode))
  checkPasswordLength(newPassword)
  const row = codes.find(ctx.project, oobCode)
  const hashed = await hashPassword(newPassword)
  // The hash yielded to other requests: the code is used up now, once, and the user read as it is.
  const used = codes.consume(ctx.project, oobCode)
  const user = ctx.store.get(ctx.project, used.local_id)
  assert(user && user.email === row.email, 'INVALID_OOB_CODE')
  // Real time, not the codes' clock: tokens are checked against it.
  const now = Date.now()
  ctx.store.transaction(() => {
    applyFields(user, {
      ...hashed,
      emailVerified: true,
      passwordUpdatedAt: now,
      validSince: String(Math.floor(now / 1000)),
    })
    ctx.store.put(ctx.project, user)
    ctx.store.revokeRefreshSessions(ctx.project, user.localId)
  })
  codes.consumeAll(ctx.project, user.localId)
  // A new password restores a throttled account at once, as production's lock message promises.
  if (user.email) ctx.throttle?.forget(throttleKey(ctx.project, user.email))
  return answer(row)
}
