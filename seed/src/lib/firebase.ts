import { randomUUID } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { type Auth, getAuth } from 'firebase-admin/auth'
import { type Firestore, initializeFirestore } from 'firebase-admin/firestore'
import { getStorage } from 'firebase-admin/storage'
import { type EmulatorHosts, readEmulatorHosts } from '../env.ts'
import { fetchRefusingFullDisk } from './backend-full.ts'

export type Bucket = ReturnType<ReturnType<typeof getStorage>['bucket']>

export type FirebaseClients = {
  projectId: string
  db: Firestore
  auth: Auth
  bucket: Bucket
  close(): Promise<void>
}

/**
 * firebase-admin clients for one project. Each call gets its own named app, so tests can seed
 * several projects in one process. Against emulators the hosts come from the usual
 * FIRESTORE_EMULATOR_HOST / FIREBASE_AUTH_EMULATOR_HOST / FIREBASE_STORAGE_EMULATOR_HOST.
 */
export function connectFirebase(options: {
  projectId: string
  bucket: string
  emulators: EmulatorHosts
}): FirebaseClients {
  const fromEnvironment = readEmulatorHosts()
  if (!isDeepStrictEqual(fromEnvironment, options.emulators)) {
    throw new Error(
      `firebase-admin reads the emulator hosts from the environment (${JSON.stringify(fromEnvironment)}), which differ from the ones given (${JSON.stringify(options.emulators)})`,
    )
  }
  const app: App = initializeApp(
    { projectId: options.projectId, storageBucket: options.bucket },
    `seed-${options.projectId}-${randomUUID()}`,
  )
  const db = initializeFirestore(app, { preferRest: true })
  if (options.emulators.firestore) {
    // The REST transport wants an auth client before it sends anything, even to an emulator, where
    // the SDK's own `Bearer owner` header is what counts (docs/wire/firestore-rest.md#firebase-admin-set-up, workaround 2).
    // Its fetch also turns a refusal for lack of space into an error firebase-admin does not retry.
    db.settings({
      auth: { getRequestHeaders: async () => ({}), fetch: fetchRefusingFullDisk },
    } as never)
  }
  return {
    projectId: options.projectId,
    db,
    auth: getAuth(app),
    bucket: getStorage(app).bucket(options.bucket),
    close: () => deleteApp(app),
  }
}
