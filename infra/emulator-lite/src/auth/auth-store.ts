import type Database from 'better-sqlite3'

/**
 * A user as the Identity Toolkit API returns it (docs/wire/auth.md#user-record). `passwordHash`/`salt` hold
 * the scrypt hash, never the password. Keys whose value is undefined are absent.
 */
export type AuthUser = {
  localId: string
  email?: string
  emailVerified?: boolean
  displayName?: string
  photoUrl?: string
  phoneNumber?: string
  disabled?: boolean
  createdAt?: string
  lastLoginAt?: string
  lastRefreshAt?: string
  passwordUpdatedAt?: number
  validSince?: string
  passwordHash?: string
  salt?: string
  customAttributes?: string
  customAuth?: boolean
  initialEmail?: string
  providerUserInfo?: Record<string, unknown>[]
  [key: string]: unknown
}

export type AuthProjectConfig = {
  signIn: { allowDuplicateEmails: boolean }
  emailPrivacyConfig: { enableImprovedEmailPrivacy: boolean }
}

export const DEFAULT_AUTH_CONFIG: AuthProjectConfig = {
  signIn: { allowDuplicateEmails: false },
  emailPrivacyConfig: { enableImprovedEmailPrivacy: false },
}

type UserRow = { record: string }

/** What a refresh token stands for; the token itself is never stored, only its SHA-256. */
export type RefreshSession = {
  project: string
  uid: string
  provider: string
  extraClaims: Record<string, unknown>
  /** When the sign-in that began this session happened (seconds): every ID token's `auth_time`. */
  authTime: number
  /** Milliseconds. */
  createdAt: number
  revokedAt: number | null
}

type SessionRow = {
  project: string
  uid: string
  provider: string
  extra_claims: string
  auth_time: number
  created_at: number
  revoked_at: number | null
}

/**
 * Auth accounts and per-project config in the emulator's SQLite file (same WAL + synchronous=FULL
 * database as documents), so every acknowledged change survives kill -9. Each project id is its
 * own user store, as in the official emulator.
 */
export class AuthStore {
  private readonly statements

  constructor(private readonly db: Database.Database) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS auth_users (
        project TEXT NOT NULL,
        local_id TEXT NOT NULL,
        email TEXT,
        phone TEXT,
        record TEXT NOT NULL,
        PRIMARY KEY (project, local_id)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS auth_users_email ON auth_users (project, email) WHERE email IS NOT NULL;
      CREATE INDEX IF NOT EXISTS auth_users_phone ON auth_users (project, phone) WHERE phone IS NOT NULL;
      CREATE TABLE IF NOT EXISTS auth_config (project TEXT PRIMARY KEY, config TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS auth_refresh_tokens (
        hash TEXT PRIMARY KEY,
        project TEXT NOT NULL,
        uid TEXT NOT NULL,
        provider TEXT NOT NULL,
        extra_claims TEXT NOT NULL,
        auth_time INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS auth_refresh_tokens_user ON auth_refresh_tokens (project, uid);
      CREATE TABLE IF NOT EXISTS auth_imports (source TEXT PRIMARY KEY, imported_at TEXT NOT NULL, accounts INTEGER NOT NULL);
    `)
    this.statements = {
      get: db.prepare<[string, string], UserRow>('SELECT record FROM auth_users WHERE project = ? AND local_id = ?'),
      byEmail: db.prepare<[string, string], UserRow>(
        'SELECT record FROM auth_users WHERE project = ? AND email = ? ORDER BY local_id LIMIT 1',
      ),
      byPhone: db.prepare<[string, string], UserRow>(
        'SELECT record FROM auth_users WHERE project = ? AND phone = ? ORDER BY local_id LIMIT 1',
      ),
      put: db.prepare<[string, string, string | null, string | null, string]>(
        'INSERT OR REPLACE INTO auth_users (project, local_id, email, phone, record) VALUES (?, ?, ?, ?, ?)',
      ),
      delete: db.prepare<[string, string]>('DELETE FROM auth_users WHERE project = ? AND local_id = ?'),
      clear: db.prepare<[string]>('DELETE FROM auth_users WHERE project = ?'),
      page: db.prepare<[string, string, number], UserRow>(
        'SELECT record FROM auth_users WHERE project = ? AND local_id > ? ORDER BY local_id LIMIT ?',
      ),
      count: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM auth_users WHERE project = ?'),
      countAll: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM auth_users'),
      getConfig: db.prepare<[string], { config: string }>('SELECT config FROM auth_config WHERE project = ?'),
      putConfig: db.prepare<[string, string]>('INSERT OR REPLACE INTO auth_config (project, config) VALUES (?, ?)'),
      addSession: db.prepare<[string, string, string, string, string, number, number]>(
        'INSERT INTO auth_refresh_tokens (hash, project, uid, provider, extra_claims, auth_time, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      getSession: db.prepare<[string], SessionRow>(
        'SELECT project, uid, provider, extra_claims, auth_time, created_at, revoked_at FROM auth_refresh_tokens WHERE hash = ?',
      ),
      revokeSession: db.prepare<[number, string]>(
        'UPDATE auth_refresh_tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL',
      ),
      revokeSessions: db.prepare<[number, string, string]>(
        'UPDATE auth_refresh_tokens SET revoked_at = ? WHERE project = ? AND uid = ? AND revoked_at IS NULL',
      ),
      clearSessions: db.prepare<[string]>('DELETE FROM auth_refresh_tokens WHERE project = ?'),
      pruneSessions: db.prepare<[number]>(
        'DELETE FROM auth_refresh_tokens WHERE revoked_at IS NOT NULL AND revoked_at < ?',
      ),
      imported: db.prepare<[string], { source: string }>('SELECT source FROM auth_imports WHERE source = ?'),
      markImported: db.prepare<[string, string, number]>(
        'INSERT OR REPLACE INTO auth_imports (source, imported_at, accounts) VALUES (?, ?, ?)',
      ),
    }
  }

  /**
   * Forgets sessions revoked before `before` (ms). Safe at any age: an unknown refresh token is
   * refused too (INVALID_REFRESH_TOKEN); kept a while, it answers TOKEN_EXPIRED, which signs the web
   * user out. Run at start with a 30-day cut.
   */
  pruneRevokedSessions(before: number): number {
    return this.statements.pruneSessions.run(before).changes
  }

  get(project: string, localId: string): AuthUser | undefined {
    return parse(this.statements.get.get(project, localId))
  }

  /** `email` must already be canonical (lowercase). */
  getByEmail(project: string, email: string): AuthUser | undefined {
    return parse(this.statements.byEmail.get(project, email))
  }

  getByPhone(project: string, phone: string): AuthUser | undefined {
    return parse(this.statements.byPhone.get(project, phone))
  }

  put(project: string, user: AuthUser): void {
    this.statements.put.run(project, user.localId, user.email ?? null, user.phoneNumber ?? null, JSON.stringify(user))
  }

  /** Deletes the account and ends its sessions (a new account with the same uid starts without them). */
  delete(project: string, localId: string): void {
    this.statements.delete.run(project, localId)
    this.statements.revokeSessions.run(Date.now(), project, localId)
  }

  clear(project: string): void {
    this.statements.clear.run(project)
    this.statements.clearSessions.run(project)
  }

  /** Records the session of a new refresh token under its hash. */
  addRefreshSession(hash: string, session: Omit<RefreshSession, 'revokedAt'>): void {
    this.statements.addSession.run(
      hash,
      session.project,
      session.uid,
      session.provider,
      JSON.stringify(session.extraClaims),
      session.authTime,
      session.createdAt,
    )
  }

  refreshSession(hash: string): RefreshSession | undefined {
    const row = this.statements.getSession.get(hash)
    if (!row) return undefined
    return {
      project: row.project,
      uid: row.uid,
      provider: row.provider,
      extraClaims: JSON.parse(row.extra_claims) as Record<string, unknown>,
      authTime: row.auth_time,
      createdAt: row.created_at,
      revokedAt: row.revoked_at,
    }
  }

  /** Ends one device's session (its refresh token). */
  revokeRefreshSession(hash: string, at = Date.now()): void {
    this.statements.revokeSession.run(at, hash)
  }

  /** Ends every session of a user: password change, disabling, revokeRefreshTokens, deletion. */
  revokeRefreshSessions(project: string, uid: string, at = Date.now()): void {
    this.statements.revokeSessions.run(at, project, uid)
  }

  /** Users after `startAfter` in code-unit order of localId (SQLite's BINARY collation). */
  page(project: string, startAfter: string, limit: number): AuthUser[] {
    return this.statements.page.all(project, startAfter, limit).map((row) => JSON.parse(row.record) as AuthUser)
  }

  count(project?: string): number {
    return (project === undefined ? this.statements.countAll.get() : this.statements.count.get(project))?.n ?? 0
  }

  config(project: string): AuthProjectConfig {
    const row = this.statements.getConfig.get(project)
    return row ? (JSON.parse(row.config) as AuthProjectConfig) : structuredClone(DEFAULT_AUTH_CONFIG)
  }

  setConfig(project: string, config: AuthProjectConfig): void {
    this.statements.putConfig.run(project, JSON.stringify(config))
  }

  wasImported(source: string): boolean {
    return this.statements.imported.get(source) !== undefined
  }

  markImported(source: string, accounts: number): void {
    this.statements.markImported.run(source, new Date().toISOString(), accounts)
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)()
  }
}

function parse(row: UserRow | undefined): AuthUser | undefined {
  return row ? (JSON.parse(row.record) as AuthUser) : undefined
}
