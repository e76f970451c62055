import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AccessLog } from './audit/access-log.ts'
import { createAccessRecorder } from './audit/recorder.ts'
import { createAccessLogHandler } from './audit/routes.ts'
import { AuthStore } from './auth/auth-store.ts'
import { type ImportResult, importOfficialExport } from './auth/import.ts'
import { createAuthServer } from './auth/server.ts'
import type { QueryOptions } from './firestore/query.ts'
import { createFirestoreHandler } from './firestore/routes.ts'
import { ApiError } from './http/errors.ts'
import { createApiServer, sendJson } from './http/server.ts'
import { loadRulesFile, Rulesets } from './security/rulesets.ts'
import { createStorageHandler, type StorageHandlerOptions } from './storage/routes.ts'
import { Store } from './store/store.ts'

export type EmulatorLiteOptions = {
  host?: string
  /** 0 picks a free port. */
  firestorePort?: number
  storagePort?: number
  dataDir?: string
  inMemory?: boolean
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
  /** Decides Firebase Storage downloads without a valid download token (default: refused); see StorageHandlerOptions. */
  storageAuthorizeRead?: StorageHandlerOptions['authorizeRead']
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
   * The access log of persons' data (issue 22): on unless false. It lives beside the store
   * (access-log.sqlite), or in memory with `inMemory`.
   */
  accessLog?: boolean
  /** Keep access-log entries this many days (pruned at start and daily, with a marker); default: keep all. */
  accessLogRetentionDays?: number | null
}

export type EmulatorLite = {
  host: string
  firestorePort: number
  storagePort: number
  authPort: number
  /** What `authImportFrom` imported on this start; null when nothing was imported. */
  authImport: ImportResult | null
  close(): Promise<void>
}

const HEALTH = { status: 'ok', service: 'emulator-lite' }

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
  const store = new Store({ dataDir: options.dataDir, inMemory: options.inMemory })
  const authStore = new AuthStore(store.db)
  const authProjectId = options.authProjectId ?? 'demo-project'
  let authImport: ImportResult | null = null
  try {
    if (options.authImportFrom)
      authImport = await importOfficialExport(authStore, authProjectId, options.authImportFrom)
  } catch (error) {
    store.close()
    throw error
  }
  const accessLog =
    options.accessLog === false ? null : new AccessLog({ dataDir: options.dataDir, inMemory: options.inMemory })
  const recorder = createAccessRecorder(accessLog)
  const retentionDays = options.accessLogRetentionDays ?? null
  const prune = () => {
    if (accessLog !== null && retentionDays !== null) accessLog.prune(retentionDays, 'emulator-lite retention')
  }
  prune()
  const pruneTimer = setInterval(prune, 86_400_000)
  pruneTimer.unref()
  const closeAccessLog = () => {
    clearInterval(pruneTimer)
    accessLog?.close()
  }
  const authServer = createAuthServer({ store: authStore, defaultProject: authProjectId })
  const firestore = createFirestoreHandler(store, rulesets, recorder, options.testOnlyQueryOptions)
  const accessLogRoutes = createAccessLogHandler(accessLog)
  const storage = createStorageHandler(store, () => `http://${host}:${storagePortOf()}`, {
    authorizeRead: options.storageAuthorizeRead,
    rulesets,
    recorder,
  })

  const firestoreServer = createApiServer(async (req, url, res) => {
    if (url.pathname === '/' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('Ok')
      return
    }
    if (url.pathname === '/health') return sendJson(res, 200, HEALTH)
    if (await accessLogRoutes(req, url, res)) return
    if (!(await firestore(req, url, res))) throw new ApiError('NOT_FOUND', `No route for ${req.method} ${url.pathname}`)
  })
  const storageServer = createApiServer(async (req, url, res) => {
    if (url.pathname === '/health') return sendJson(res, 200, HEALTH)
    if (!(await storage(req, url, res))) throw new ApiError('NOT_FOUND', `No route for ${req.method} ${url.pathname}`)
  }, 'x-goog-upload-url, x-goog-upload-status, x-goog-upload-chunk-granularity, x-goog-upload-control-url, x-goog-upload-size-received, x-goog-upload-content-type, x-goog-upload-command, x-goog-upload-header-content-type')
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => resolve((server.address() as AddressInfo).port))
    })
  let storagePort = options.storagePort ?? 9199
  const storagePortOf = () => storagePort
  try {
    const firestorePort = await listen(firestoreServer, options.firestorePort ?? 8080)
    storagePort = await listen(storageServer, storagePort)
    const authPort = await listen(authServer, options.authPort ?? (options.firestorePort === 0 ? 0 : 9099))
    return {
      host,
      firestorePort,
      storagePort,
      authPort,
      authImport,
      async close() {
        await Promise.all(
          [firestoreServer, storageServer, authServer].map(
            (server) =>
              new Promise<void>((resolve) => {
                server.closeAllConnections()
                server.close(() => resolve())
              }),
          ),
        )
        store.close()
        closeAccessLog()
      },
    }
  } catch (error) {
    firestoreServer.close()
    storageServer.close()
    authServer.close()
    store.close()
    closeAccessLog()
    throw error
  }
}
