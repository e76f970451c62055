import { mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import type { AccessClassifier } from '@bosted/domain/access-classifier'
import { AccessLog } from './audit/access-log.ts'
import { migrateLegacyAccessLog } from './audit/migrate-legacy.ts'
import { createAccessRecorder, NO_PERSON_DATA } from './audit/recorder.ts'
import { accessLogRoutes } from './audit/routes.ts'
import { AuthStore } from './auth/auth-store.ts'
import { createIdTokenVerifier, type IdTokenVerifier } from './auth/identity.ts'
import { type ImportResult, importOfficialExport } from './auth/import.ts'
import { createKeyRoutes, type KeyRoute } from './auth/key-routes.ts'
import { loadServiceAccount, type ServiceAccountKey, SigningKeys } from './auth/keys.ts'
import { OobCodes } from './auth/oob.ts'
import type { AuthSigning } from './auth/operations.ts'
import { authRootRoutes, authRoutes } from './auth/routes.ts'
import { SignInThrottle, type SignInThrottleOptions } from './auth/sign-in-throttle.ts'
import { type SmtpConfig, sendMail } from './auth/smtp.ts'
import { createGrpcServer } from './firestore/grpc/server.ts'
import type { QueryOptions } from './firestore/query.ts'
import { firestoreRootRoutes, firestoreRoutesFor } from './firestore/routes.ts'
import { createFirestoreService } from './firestore/service.ts'
import { acceptWebChannel } from './firestore/webchannel/server.ts'
import { createCoreApp, type Listener, type Route, type VerifyIdToken } from './http/core.ts'
import { acceptH2c } from './http/h2c.ts'
import { nodeListener } from './http/listener.ts'
import { loadAdminSecret, newAdminSecret } from './security/admin-secret.ts'
import { loadRulesFile, Rulesets } from './security/rulesets.ts'
import { type StorageOptions, storageRoutes } from './storage/routes.ts'
import { type UploadSessionOptions, UploadSessions } from './storage/upload-sessions.ts'
import { DISK_FULL_MESSAGE, DiskState, type DiskStatus, unlessDiskFull } from './store/disk-state.ts'
import { Store } from './store/store.ts'

/** How long an idle HTTP/1.1 connection is kept (longer than any client pool keeps one idle). */
export const KEEP_ALIVE_MS = 65_000

export type { Listener, Route, VerifyIdToken } from './http/core.ts'

export type EmulatorLiteOptions = {
  host?: string
  /** 0 picks a free port. */
  firestorePort?: number
  storagePort?: number
  dataDir?: string
  inMemory?: boolean
  /**
   * Where service-account.json is kept when not in `dataDir`: an in-memory emulator run as its own
   * process (the test stack) writes it here, so the api and the seed can sign custom tokens.
   */
  serviceAccountDir?: string
  /**
   * Port of the Auth emulator (Identity Toolkit + securetoken); 0 picks a free one. Defaults to 9099,
   * or to 0 when `firestorePort` is 0, so callers that ask for free ports never collide on 9099.
   */
  authPort?: number
  /** The project of Auth calls that name none (every web SDK call), like firebase-tools' `--project`. */
  authProjectId?: string
  /**
   * An official Auth emulator export (the directory written by `--export-on-exit`, or its
   * `auth_export/accounts.json`), imported into `authProjectId` while the database has no accounts.
   */
  authImportFrom?: string
  /** Decides Firebase Storage downloads without a valid download token while no storage rules are loaded (default: allowed). */
  storageAuthorizeRead?: StorageOptions['authorizeRead']
  /**
   * Security rules files (Firestore for every project, Storage for every bucket), enforced for every
   * request without the owner credential. Without them everything is allowed, as the official
   * emulators allow everything without a rules file. A file the engine cannot compile stops start-up
   * with a RulesError naming file:line:column.
   */
  firestoreRules?: string
  storageRules?: string
  /** For the parity harness's own test only: a planted query-engine difference it must catch. */
  testOnlyQueryOptions?: QueryOptions
  /**
   * Object-name prefixes (e.g. `persons/`) whose download-token URLs do not open the object by
   * themselves: the caller's `Authorization` must pass the Storage rules' read too (README: Storage).
   */
  tokenDownloadsNeedRules?: readonly string[]
  /**
   * The access log of persons' data (issue 22): on unless false. A table in the store's database
   * (emulator-lite.sqlite, or memory with `inMemory`), so writes and their entries commit together
   * (ADR 0017); a data directory's older access-log.sqlite is moved into it at start.
   */
  accessLog?: boolean
  /**
   * What a path means for the access log: which documents and objects are whose data. emulator-lite
   * knows no app's collections, so its starter injects this (Bosted's: `@bosted/domain/access-classifier`);
   * without it nothing is a person's data and nothing is logged.
   */
  accessClassifier?: AccessClassifier
  /** Keep access-log entries this many days (pruned at start and daily, with a marker); default: keep all. */
  accessLogRetentionDays?: number | null
  /**
   * The privileged listener (Auth, Firestore and Storage on one port) for server SDKs and tools:
   * there `Bearer owner` and the GCS JSON API without credentials are privileged. 0 picks a free
   * port; default 9098, or 0 when `firestorePort` is 0. Never hand it to browsers.
   */
  adminPort?: number
  /** Where the admin listener binds (default 127.0.0.1; `0.0.0.0` only inside a container, never published). */
  adminHost?: string
  /**
   * Replaces the verifier of signed ID tokens for Firestore and Storage (tests only: the privilege
   * suite observes which tokens reach it). Never set outside tests.
   */
  verifyIdToken?: VerifyIdToken
  /**
   * Also believe unsigned tokens: `alg: none` ID tokens (rules-unit-testing's mock tokens, the
   * official Auth emulator's) in Firestore and Storage, unsigned custom tokens and the legacy
   * base64-JSON refresh tokens in Auth. Off by default; never for a pilot (issue 27 point 5).
   */
  acceptUnsignedTokens?: boolean
  /**
   * The per-account throttle of password sign-ins (`TOO_MANY_ATTEMPTS_TRY_LATER`): its schedule and
   * clock (tests inject one). Default: 5 free failures, then 1 s doubling to 15 min (README: Auth).
   */
  signInThrottle?: SignInThrottleOptions
  /**
   * Bounds of resumable Storage uploads (README: Storage): `maxBytes` per session (default 64 MiB),
   * `idleMs` before an untouched session is dropped (default 1 h), open sessions `maxPerCaller`
   * (default 8) and `maxOpen` (default 256), and the clock. Sessions spool to
   * `<dataDir>/upload-spool`, or to the OS temp dir in memory.
   */
  storageUploads?: Omit<UploadSessionOptions, 'spoolDir'>
  /** Rotate the signing keys at start (`--rotate-signing-key`); the old ones stay published until their tokens expire. */
  rotateSigningKey?: boolean
  /**
   * The reserve kept in the data directory (`disk-reserve`) and released when the disk fills, so
   * reads and their access-log entries go on while writes are refused (ADR 0018). Default 16 MiB; 0: none.
   */
  diskReserveBytes?: number
  /** How often the data disk's free space is checked, in ms (default 2,000). */
  diskCheckEveryMs?: number
  /**
   * Password reset by mail (accounts:sendOobCode / resetPassword): the SMTP relay that sends the
   * links (PILOT_SMTP_*; without it the codes are listed on the admin listener only), the page the
   * links open, and the clock of the codes' hour (tests).
   */
  passwordReset?: { smtp?: SmtpConfig | undefined; resetUrl?: string | undefined; now?: () => number }
  /** A pilot: the browser-facing Auth listener refuses `accounts:signUp` (anonymous included); the admin listener still creates accounts. */
  disableSignUp?: boolean
}

export type EmulatorLite = {
  host: string
  firestorePort: number
  storagePort: number
  authPort: number
  /** The privileged listener's port (Auth, Firestore and Storage together). */
  adminPort: number
  adminHost: string
  /** Presented as `Bearer <secret>` on any listener it is privileged; kept in `<dataDir>/admin-secret`. */
  adminSecret: string
  /** The file holding the admin secret (null in memory). */
  adminSecretFile: string | null
  /** The route table of each listener (every route passes the core's middleware chain). */
  routes: Record<Listener, readonly Route[]>
  /** What `authImportFrom` imported on this start; null when nothing was imported. */
  authImport: ImportResult | null
  /** `signed`, or `unsigned-accepted` with acceptUnsignedTokens: what the ready line says. */
  tokens: 'signed' | 'unsigned-accepted'
  /** The service account whose custom tokens Auth accepts (in a data directory: service-account.json). */
  serviceAccount: ServiceAccountKey
  /** A new active signing key per set; the old ones verify until their tokens expire. */
  rotateSigningKeys(): void
  /** The verifier Firestore and Storage use for `request.auth` (exposed for the HTTP core and tests). */
  verifyIdToken: IdTokenVerifier
  /** The published-key routes, for any further listener (the admin port). */
  keyRoute: KeyRoute
  /** Whether the data disk has room (what `GET /health` reports as `disk`). */
  diskStatus(): DiskStatus
  close(): Promise<void>
}

/**
 * Starts the Firestore (REST v1), Cloud Storage for Firebase and Auth servers over one SQLite store.
 * The official SDKs connect to them with connect*Emulator / *_EMULATOR_HOST only.
 */
export async function startEmulatorLite(options: EmulatorLiteOptions = {}): Promise<EmulatorLite> {
  const host = options.host ?? '127.0.0.1'
  const rulesets = new Rulesets({
    firestore: options.firestoreRules ? loadRulesFile(options.firestoreRules, 'cloud.firestore') : null,
    storage: options.storageRules ? loadRulesFile(options.storageRules, 'firebase.storage') : null,
  })
  // The disk first: on a full disk it releases the reserve, so SQLite finds room to open its files.
  const diskDir = options.inMemory ? null : resolve(options.dataDir ?? '.data/emulator-lite')
  if (diskDir !== null) mkdirSync(diskDir, { recursive: true })
  const disk = new DiskState({
    dir: diskDir,
    reserveBytes: options.diskReserveBytes,
    checkEveryMs: options.diskCheckEveryMs,
  })
  let store: Store
  try {
    store = new Store({ dataDir: options.dataDir, inMemory: options.inMemory })
  } catch (error) {
    disk.close()
    throw error
  }
  store.disk = disk
  const authStore = new AuthStore(store.db)
  // Housekeeping at start waits for a disk with room; it must not stop a start on a full one.
  unlessDiskFull(() => authStore.pruneRevokedSessions(Date.now() - 30 * 86_400_000))
  const authProjectId = options.authProjectId ?? 'demo-project'
  // Keys beside the database (0600), or in memory with it.
  const keyDir = options.inMemory ? undefined : (options.dataDir ?? '.data/emulator-lite')
  let signing: AuthSigning
  try {
    const keys = new SigningKeys({ dataDir: keyDir })
    if (options.rotateSigningKey) keys.rotate()
    signing = {
      keys,
      serviceAccount: loadServiceAccount(authProjectId, { dataDir: options.serviceAccountDir ?? keyDir }),
      acceptUnsignedTokens: options.acceptUnsignedTokens === true,
    }
  } catch (error) {
    disk.close()
    store.close()
    throw error
  }
  const signed = createIdTokenVerifier({
    keys: signing.keys,
    defaultProject: authProjectId,
    acceptUnsignedTokens: signing.acceptUnsignedTokens,
  })
  const verifyIdToken: IdTokenVerifier = options.verifyIdToken ?? signed.verifyIdToken
  const keyRoute = createKeyRoutes(signing.keys, signing.serviceAccount)
  let authImport: ImportResult | null = null
  try {
    if (options.authImportFrom)
      authImport = await importOfficialExport(authStore, authProjectId, options.authImportFrom)
  } catch (error) {
    disk.close()
    store.close()
    throw error
  }
  let accessLog: AccessLog | null = null
  try {
    if (options.accessLog !== false) {
      // In the store's own database: a write and its entries commit together (ADR 0017).
      if (!options.inMemory) migrateLegacyAccessLog(store.db, resolve(options.dataDir ?? '.data/emulator-lite'))
      accessLog = new AccessLog({ db: store.db })
    }
  } catch (error) {
    store.close()
    throw error
  }
  const recorder = createAccessRecorder(accessLog, { classifier: options.accessClassifier ?? NO_PERSON_DATA })
  const retentionDays = options.accessLogRetentionDays ?? null
  const prune = () => {
    if (accessLog !== null && retentionDays !== null)
      unlessDiskFull(() => accessLog.prune(retentionDays, 'emulator-lite retention'))
  }
  prune()
  const pruneTimer = setInterval(prune, 86_400_000)
  pruneTimer.unref()
  const closeAccessLog = () => {
    clearInterval(pruneTimer)
    accessLog?.close()
  }
  const dataDir = resolve(options.dataDir ?? '.data/emulator-lite')
  const admin = options.inMemory ? { secret: newAdminSecret(), file: null } : loadAdminSecret(dataDir)
  const health: (service: Route['service']) => Route = (service) => ({
    name: `${service}.health`,
    method: 'GET',
    path: '/health',
    service,
    // 200 while the disk is full too: the process is alive and reads work; restarting it would not
    // free space. The api's write check (a probe commit) sees the same state as RESOURCE_EXHAUSTED.
    handler: (c) =>
      c.json(
        disk.isFull
          ? { status: 'degraded', service: 'emulator-lite', reason: DISK_FULL_MESSAGE, disk: disk.status() }
          : { status: 'ok', service: 'emulator-lite', disk: disk.status() },
      ),
  })
  const firestoreService = createFirestoreService(store, rulesets, recorder, options.testOnlyQueryOptions)
  const firestore = [...firestoreRoutesFor(firestoreService), ...accessLogRoutes(accessLog, recorder.classifier)]
  const uploads = new UploadSessions({
    ...options.storageUploads,
    spoolDir: options.inMemory ? undefined : resolve(dataDir, 'upload-spool'),
  })
  const storage = storageRoutes(store, {
    recorder: accessLog === null ? null : recorder,
    authorizeRead: options.storageAuthorizeRead,
    tokenDownloadsNeedRules: options.tokenDownloadsNeedRules,
    rulesets,
    uploads,
  })
  const smtp = options.passwordReset?.smtp
  const oob = new OobCodes(store.db, {
    mailer: smtp ? (message) => sendMail(smtp, message) : undefined,
    resetUrl: options.passwordReset?.resetUrl,
    ...(options.passwordReset?.now ? { now: options.passwordReset.now } : {}),
  })
  const auth = authRoutes({
    store: authStore,
    defaultProject: authProjectId,
    signing,
    keyRoute,
    throttle: new SignInThrottle(options.signInThrottle),
    oob,
    signUpDisabled: options.disableSignUp === true,
  })
  const tables: Record<Listener, Route[][]> = {
    firestore: [firestoreRootRoutes, [health('firestore')], firestore],
    storage: [[health('storage')], storage],
    auth: [authRootRoutes, auth],
    // `GET /` answers as the Auth emulator (FIREBASE_AUTH_EMULATOR_HOST's probe); `/health` as the others.
    admin: [authRootRoutes, [health('firestore')], firestore, storage, auth],
  }
  const deps = {
    disk,
    verifyIdToken,
    adminSecret: admin.secret,
    recorder: accessLog === null ? null : recorder,
    rulesActive: (route: Route, c: Parameters<Route['handler']>[0]) =>
      route.rules === 'storage'
        ? rulesets.storage() !== null
        : rulesets.firestore(route.project ? route.project(c) : '') !== null,
  }
  const serverFor = (listener: Listener): Server => {
    const server = createServer(nodeListener(createCoreApp(listener, tables[listener], deps)))
    // Idle keep-alive connections outlive the clients' own pools (Node's agents drop theirs after
    // 5 s, Node's server default): the client always closes first, so a request it sends on a pooled
    // connection never meets the server closing it (ECONNRESET on a busy machine).
    server.keepAliveTimeout = KEEP_ALIVE_MS
    server.headersTimeout = KEEP_ALIVE_MS + 1_000
    return server
  }
  const firestoreServer = serverFor('firestore')
  const storageServer = serverFor('storage')
  const authServer = serverFor('auth')
  const adminServer = serverFor('admin')
  const servers = [firestoreServer, storageServer, authServer, adminServer]
  // Firestore's gRPC API beside REST on the Firestore and admin ports (h2c; ADR 0029).
  const closeGrpc = (['firestore', 'admin'] as const).map((listener) =>
    acceptH2c(
      listener === 'firestore' ? firestoreServer : adminServer,
      createGrpcServer(listener, firestoreService, deps),
    ),
  )
  // Firestore's WebChannel (the web SDK's streams in a browser) in front of REST on the same ports (ADR 0029).
  const closeWebChannel = (['firestore', 'admin'] as const).map((listener) =>
    acceptWebChannel(listener === 'firestore' ? firestoreServer : adminServer, listener, firestoreService, deps),
  )
  const listen = (server: Server, port: number, on = host) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, on, () => resolve((server.address() as AddressInfo).port))
    })
  const adminHost = options.adminHost ?? '127.0.0.1'
  try {
    const firestorePort = await listen(firestoreServer, options.firestorePort ?? 8080)
    const storagePort = await listen(storageServer, options.storagePort ?? 9199)
    const authPort = await listen(authServer, options.authPort ?? (options.firestorePort === 0 ? 0 : 9099))
    const adminPort = await listen(
      adminServer,
      options.adminPort ?? (options.firestorePort === 0 ? 0 : 9098),
      adminHost,
    )
    return {
      host,
      firestorePort,
      storagePort,
      authPort,
      adminPort,
      adminHost,
      adminSecret: admin.secret,
      adminSecretFile: admin.file,
      routes: {
        firestore: tables.firestore.flat(),
        storage: tables.storage.flat(),
        auth: tables.auth.flat(),
        admin: tables.admin.flat(),
      },
      authImport,
      tokens: signing.acceptUnsignedTokens ? 'unsigned-accepted' : 'signed',
      get serviceAccount() {
        return signing.serviceAccount.key
      },
      rotateSigningKeys: () => signing.keys.rotate(),
      verifyIdToken,
      keyRoute,
      diskStatus: () => disk.status(),
      async close() {
        for (const closeSessions of [...closeGrpc, ...closeWebChannel]) closeSessions()
        await Promise.all(
          servers.map(
            (server) =>
              new Promise<void>((resolve) => {
                server.closeAllConnections()
                server.close(() => resolve())
              }),
          ),
        )
        disk.close()
        store.close()
        closeAccessLog()
        uploads.close()
      },
    }
  } catch (error) {
    for (const server of servers) server.close()
    disk.close()
    store.close()
    closeAccessLog()
    uploads.close()
    throw error
  }
}

// Signed identity, for the api's tests, tools and the HTTP core (docs/decisions/0010-signed-identity.md).
export { signCustomToken } from './auth/custom-token.ts'
export { createIdTokenVerifier, type IdTokenVerifier, signJwt } from './auth/identity.ts'
export { KEY_PATHS } from './auth/key-routes.ts'
export {
  SERVICE_ACCOUNT_EMAIL,
  SERVICE_ACCOUNT_FILE,
  type ServiceAccountKey,
  SIGNING_KEYS_FILE,
} from './auth/keys.ts'
export { type CertificateOptions, selfSignedCertificate } from './auth/x509.ts'
