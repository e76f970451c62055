import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { type Auth, getAuth } from 'firebase-admin/auth'
import { FieldValue, type Firestore, initializeFirestore } from 'firebase-admin/firestore'
import { getStorage } from 'firebase-admin/storage'
import { GoogleAuth } from 'google-auth-library'
import { type AccessLogStore, cloudLoggingAccessLog, emulatorAccessLog } from './access-log.ts'
import { type RunPeriodQuery, restPeriodQuery } from './firestore-query.ts'

export type FirebaseOptions = {
  projectId: string
  /**
   * Firestore's project when it differs from Auth's. Only tests use it: the Auth emulator signs
   * users in to its default project alone, so test files share that one and keep their data apart
   * in Firestore projects of their own.
   */
  firestoreProjectId?: string | undefined
  storageBucket?: string | undefined
  /** Set when FIRESTORE_EMULATOR_HOST is: the emulator needs no credentials (see below). */
  useFirestoreEmulator: boolean
}

/** The firebase-admin services the api uses, on an app of its own so several can share a process (tests). */
export type Firebase = {
  projectId: string
  auth: Auth
  db: Firestore
  /** The project whose documents `db` reads (differs from projectId in tests only). */
  firestoreProjectId: string
  /** The default bucket (FIREBASE_STORAGE_BUCKET, else <project>.appspot.com). */
  bucket(): ReturnType<ReturnType<typeof getStorage>['bucket']>
  /** Who read a person's data: emulator-lite's log, or Cloud Logging in production. */
  accessLog: AccessLogStore
  /** A location's records of a period, projected, over REST without firebase-admin's decoding (Statistik). */
  periodQuery: RunPeriodQuery
  /**
   * Stores one tiny document (`health/probe`) and resolves once the backend took it; rejects with
   * `code` 8 when it refused for lack of space (RESOURCE_EXHAUSTED), with the cause otherwise.
   */
  probeWrite(): Promise<void>
  /**
   * Whether probeWrite goes through firebase-admin, which retries a commit refused with
   * RESOURCE_EXHAUSTED for minutes (production): no answer in time may then be a refusal. The
   * emulator's probe is one request answered at once, full disk or not: no answer is slowness.
   */
  probeWriteHidesRefusals: boolean
  close(): Promise<void>
}

let appCounter = 0

/**
 * Creates a firebase-admin app. The emulator hosts come from FIREBASE_AUTH_EMULATOR_HOST and
 * FIRESTORE_EMULATOR_HOST, which firebase-admin reads itself; without them (production) it uses
 * application default credentials. Only the environment differs.
 */
export function createFirebase(options: FirebaseOptions): Firebase {
  appCounter += 1
  const app: App = initializeApp(
    { projectId: options.projectId, ...(options.storageBucket ? { storageBucket: options.storageBucket } : {}) },
    `api-${options.projectId}-${appCounter}`,
  )
  // REST, as the api has always spoken it: emulator-lite speaks gRPC too since ADR 0029, but the
  // api's bulk read measured no faster over it (ADR 0027, 2026-11-26 amendment).
  const db = initializeFirestore(app, { preferRest: true })
  const settings: Record<string, unknown> = {}
  if (options.firestoreProjectId) settings.projectId = options.firestoreProjectId
  if (options.useFirestoreEmulator) {
    // The REST transport asks for a google-auth client before every call, even against an
    // emulator, and fails with "Could not load the default credentials" without one
    // (docs/wire/firestore-rest.md#firebase-admin-set-up); since firebase-admin 14 the transport sends each request through the
    // client's fetch. The emulator header `Authorization: Bearer owner` is added anyway.
    settings.auth = { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) }
  }
  // settings() may be called once, before the first use.
  if (Object.keys(settings).length > 0) db.settings(settings)
  const firestoreProjectId = options.firestoreProjectId ?? options.projectId
  // The emulator's host when the api talks to one (its privileged REST calls go there), else undefined.
  const emulatorHost = (options.useFirestoreEmulator && process.env.FIRESTORE_EMULATOR_HOST) || undefined
  // One GoogleAuth for the app's life (it caches the client and its token), made on first use only.
  let googleAuth: GoogleAuth | undefined
  const authorizedHeaders = async () => {
    googleAuth ??= new GoogleAuth({
      scopes: [
        'https://www.googleapis.com/auth/logging.read',
        'https://www.googleapis.com/auth/logging.write',
        'https://www.googleapis.com/auth/datastore',
      ],
    })
    const client = await googleAuth.getClient()
    return Object.fromEntries(await client.getRequestHeaders()) as Record<string, string>
  }
  const accessLog = emulatorHost
    ? emulatorAccessLog(emulatorHost)
    : cloudLoggingAccessLog({
        projectId: options.projectId,
        authorizedFetch: async (url, init) =>
          fetch(url, { ...init, headers: { ...(await authorizedHeaders()), ...init.headers } }),
      })
  const periodQuery = restPeriodQuery(
    emulatorHost
      ? { origin: `http://${emulatorHost}`, projectId: firestoreProjectId, headers: async () => EMULATOR_OWNER }
      : { origin: 'https://firestore.googleapis.com', projectId: firestoreProjectId, headers: authorizedHeaders },
  )
  const bucketName = options.storageBucket ?? `${firestoreProjectId}.appspot.com`
  const probeWrite = emulatorHost
    ? () => probeEmulatorWrite(emulatorHost, firestoreProjectId)
    : async () => {
        await db.doc(HEALTH_PROBE_DOCUMENT).set({ checkedAt: FieldValue.serverTimestamp() })
      }
  return {
    projectId: options.projectId,
    firestoreProjectId,
    auth: getAuth(app),
    db,
    bucket: () => getStorage(app).bucket(bucketName),
    accessLog,
    periodQuery,
    probeWrite,
    probeWriteHidesRefusals: emulatorHost === undefined,
    close: () => deleteApp(app),
  }
}

/** emulator-lite's privileged header, which its admin listener believes (the public ports refuse it). */
const EMULATOR_OWNER = { authorization: 'Bearer owner' }

/** Where the api proves it can write; the rules give clients no access to `health`. */
export const HEALTH_PROBE_DOCUMENT = 'health/probe'

/**
 * The probe write against emulator-lite, as one REST commit with the emulator's privileged header
 * (as the access log's calls): firebase-admin retries a commit refused with RESOURCE_EXHAUSTED for
 * up to ten minutes, so through it a full disk would look like a slow backend, not a full one.
 */
async function probeEmulatorWrite(host: string, projectId: string): Promise<void> {
  const database = `projects/${encodeURIComponent(projectId)}/databases/(default)`
  const response = await fetch(`http://${host}/v1/${database}/documents:commit`, {
    method: 'POST',
    headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
    body: JSON.stringify({
      writes: [
        {
          update: {
            name: `${database}/documents/${HEALTH_PROBE_DOCUMENT}`,
            fields: { checkedAt: { timestampValue: new Date().toISOString() } },
          },
        },
      ],
    }),
    signal: AbortSignal.timeout(2_000),
  })
  if (response.ok) {
    await response.body?.cancel()
    return
  }
  const body = (await response.json().catch(() => null)) as { error?: { status?: unknown; message?: unknown } } | null
  const status = body?.error?.status
  throw Object.assign(
    new Error(
      `the probe write was refused: ${String(status ?? response.status)} ${String(body?.error?.message ?? '')}`,
    ),
    {
      code: status === 'RESOURCE_EXHAUSTED' ? 8 : response.status,
    },
  )
}
