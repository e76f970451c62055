import { randomUUID } from 'node:crypto'
import { deleteApp, type FirebaseApp, initializeApp } from 'firebase/app'
import { connectFirestoreEmulator, type Firestore, getFirestore } from 'firebase/firestore/lite'
import { connectStorageEmulator, type FirebaseStorage, getStorage } from 'firebase/storage'
import { type App, deleteApp as deleteAdminApp, initializeApp as initializeAdminApp } from 'firebase-admin/app'
import { type Firestore as AdminFirestore, initializeFirestore } from 'firebase-admin/firestore'
import { getStorage as getAdminStorage } from 'firebase-admin/storage'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

/**
 * The official SDKs pointed at an emulator. Hosts come from FIRESTORE_EMULATOR_HOST /
 * FIREBASE_STORAGE_EMULATOR_HOST, so the suite runs unchanged against the official emulators too.
 */
export type Sdks = {
  projectId: string
  bucket: string
  /** `host:port` of the Firestore and Storage targets, for the few hand-built (error-case) requests. */
  firestoreHost: string
  storageHost: string
  /**
   * Where firebase-admin and privileged hand-built requests (`Bearer owner`) go: emulator-lite's
   * admin listener (Firestore and Storage on one port), or the official emulators' own ports.
   */
  adminFirestoreHost: string
  adminStorageHost: string
  lite: Firestore
  storage: FirebaseStorage
  admin: AdminFirestore
  adminStorage: ReturnType<typeof getAdminStorage>
  close(): Promise<void>
}

export function connectSdks(
  firestoreHost: string,
  storageHost: string,
  adminHosts: { firestore: string; storage: string } = { firestore: firestoreHost, storage: storageHost },
): Sdks {
  // firebase-admin reads its hosts from the environment when its services are created (below).
  process.env.FIRESTORE_EMULATOR_HOST = adminHosts.firestore
  process.env.FIREBASE_STORAGE_EMULATOR_HOST = adminHosts.storage
  const projectId = `demo-lite-${randomUUID().slice(0, 8)}`
  const bucket = `${projectId}.appspot.com`
  const web: FirebaseApp = initializeApp({ projectId, apiKey: 'fake-api-key', storageBucket: bucket }, projectId)
  const lite = getFirestore(web)
  const [fsHost, fsPort] = firestoreHost.split(':')
  connectFirestoreEmulator(lite, fsHost as string, Number(fsPort))
  const storage = getStorage(web)
  const [stHost, stPort] = storageHost.split(':')
  connectStorageEmulator(storage, stHost as string, Number(stPort))
  const adminApp: App = initializeAdminApp({ projectId, storageBucket: bucket }, `admin-${projectId}`)
  const admin = initializeFirestore(adminApp, { preferRest: true })
  // firebase-admin's REST transport needs an auth client even against an emulator (docs/wire/firestore-rest.md#firebase-admin-set-up).
  admin.settings({
    auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
  } as never)
  return {
    projectId,
    bucket,
    firestoreHost,
    storageHost,
    adminFirestoreHost: adminHosts.firestore,
    adminStorageHost: adminHosts.storage,
    lite,
    storage,
    admin,
    adminStorage: getAdminStorage(adminApp),
    async close() {
      await deleteApp(web)
      await deleteAdminApp(adminApp)
    },
  }
}

/** The SDKs pointed at an in-process emulator-lite: clients at its public ports, firebase-admin at its admin port. */
export function connectLite(emulator: EmulatorLite): Sdks {
  const admin = `127.0.0.1:${emulator.adminPort}`
  return connectSdks(`127.0.0.1:${emulator.firestorePort}`, `127.0.0.1:${emulator.storagePort}`, {
    firestore: admin,
    storage: admin,
  })
}

/**
 * The conformance suites' target: a fresh in-memory emulator-lite, or — with
 * EMULATOR_LITE_TARGET=external and the *_EMULATOR_HOST variables — the official emulators (parity run).
 */
export async function connectConformanceTarget(): Promise<Sdks> {
  if (process.env.EMULATOR_LITE_TARGET === 'external') {
    const { FIRESTORE_EMULATOR_HOST: firestore, FIREBASE_STORAGE_EMULATOR_HOST: storage } = process.env
    if (!firestore || !storage) throw new Error('set FIRESTORE_EMULATOR_HOST and FIREBASE_STORAGE_EMULATOR_HOST')
    return connectSdks(firestore, storage)
  }
  // Without storage rules everything is allowed, as the official Storage emulator in the parity run.
  const emulator = await startEmulatorLite({ firestorePort: 0, storagePort: 0, inMemory: true })
  const sdks = connectLite(emulator)
  return {
    ...sdks,
    async close() {
      await sdks.close()
      await emulator.close()
    },
  }
}
