import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createFirestoreHandler } from './firestore/routes.ts'
import { ApiError } from './http/errors.ts'
import { createApiServer, sendJson } from './http/server.ts'
import { createStorageHandler } from './storage/routes.ts'
import { Store } from './store/store.ts'

export type EmulatorLiteOptions = {
  host?: string
  /** 0 picks a free port. */
  firestorePort?: number
  storagePort?: number
  dataDir?: string
  inMemory?: boolean
}

export type EmulatorLite = { host: string; firestorePort: number; storagePort: number; close(): Promise<void> }

const HEALTH = { status: 'ok', service: 'emulator-lite' }

/**
 * Starts the Firestore (REST v1) and Cloud Storage for Firebase servers over one SQLite store.
 * The official SDKs connect to them with connect*Emulator / *_EMULATOR_HOST only.
 */
export async function startEmulatorLite(options: EmulatorLiteOptions = {}): Promise<EmulatorLite> {
  const host = options.host ?? '127.0.0.1'
  const store = new Store({ dataDir: options.dataDir, inMemory: options.inMemory })
  const firestore = createFirestoreHandler(store)
  const storage = createStorageHandler(store, () => `http://${host}:${storagePortOf()}`)

  const firestoreServer = createApiServer(async (req, url, res) => {
    if (url.pathname === '/' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('Ok')
      return
    }
    if (url.pathname === '/health') return sendJson(res, 200, HEALTH)
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
    return {
      host,
      firestorePort,
      storagePort,
      async close() {
        await Promise.all(
          [firestoreServer, storageServer].map(
            (server) =>
              new Promise<void>((resolve) => {
                server.closeAllConnections()
                server.close(() => resolve())
              }),
          ),
        )
        store.close()
      },
    }
  } catch (error) {
    firestoreServer.close()
    storageServer.close()
    store.close()
    throw error
  }
}
