import { randomUUID } from 'node:crypto'
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { type Firestore, initializeFirestore } from 'firebase-admin/firestore'
import { type EmulatorLiteOptions, startEmulatorLite } from '../src/index.ts'
import { startOfficialFirestore } from './official-emulator.ts'

/** One Firestore under test, reached through firebase-admin over REST (`preferRest`), as the owner. */
export type Target = {
  name: 'emulator-lite' | 'official'
  /** Where clients (ID tokens, rules applied) send requests. */
  host: string
  /** Where privileged requests go (`Bearer owner`: firebase-admin, rule loads). */
  adminHost: string
  projectId: string
  db: Firestore
}

export type Targets = { lite: Target; official: Target; close(): Promise<void> }

function adminFirestore(host: string, projectId: string): { app: App; db: Firestore } {
  // firebase-admin takes the emulator's address from the environment when the instance is made.
  const previous = process.env.FIRESTORE_EMULATOR_HOST
  process.env.FIRESTORE_EMULATOR_HOST = host
  try {
    const app = initializeApp({ projectId }, `parity-${randomUUID()}`)
    const db = initializeFirestore(app, { preferRest: true })
    // The REST transport wants an auth client even against an emulator.
    db.settings({
      auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
    } as never)
    return { app, db }
  } finally {
    if (previous === undefined) delete process.env.FIRESTORE_EMULATOR_HOST
    else process.env.FIRESTORE_EMULATOR_HOST = previous
  }
}

/**
 * emulator-lite in this process (in memory, no rules) and Google's Firestore emulator (gcloud, no
 * rules: everything allowed), each with a firebase-admin client for the same project id, so
 * document names and references read the same on both. `liteOptions` is for the harness's own test,
 * which plants a difference.
 */
export async function startTargets(liteOptions: EmulatorLiteOptions = {}, projectId = 'demo-parity'): Promise<Targets> {
  const official = await startOfficialFirestore()
  const lite = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    inMemory: true,
    accessLog: false,
    ...liteOptions,
  }).catch(async (error) => {
    await official.close()
    throw error
  })
  const liteHost = `127.0.0.1:${lite.firestorePort}`
  // emulator-lite's privileged listener: the browser-facing port refuses the owner credential.
  const liteAdminHost = `127.0.0.1:${lite.adminPort}`
  const a = adminFirestore(liteAdminHost, projectId)
  const b = adminFirestore(official.host, projectId)
  return {
    lite: { name: 'emulator-lite', host: liteHost, adminHost: liteAdminHost, projectId, db: a.db },
    official: { name: 'official', host: official.host, adminHost: official.host, projectId, db: b.db },
    async close() {
      await Promise.allSettled([deleteApp(a.app), deleteApp(b.app)])
      await lite.close()
      await official.close()
    },
  }
}
