import { type EmulatorHosts, readEmulatorHosts } from './env.ts'
import { assertBackendHasRoom } from './lib/backend-full.ts'
import { dayInCopenhagen, isDay } from './lib/dates.ts'
import { connectFirebase } from './lib/firebase.ts'
import { assertEmulatorsReachable } from './lib/reachable.ts'
import { isPilot } from './migrate-project.ts'
import { buildDataset, DOC_KINDS } from './plan/build-dataset.ts'
import { syncAuthUsers } from './steps/auth.ts'
import { hasData, syncDocuments } from './steps/firestore.ts'
import { resetProject } from './steps/reset.ts'
import { formatStep, type StepResult } from './steps/step.ts'
import { syncFiles } from './steps/storage.ts'

export type SeedOptions = {
  projectId: string
  bucket: string
  /** Defaults to the *_EMULATOR_HOST variables, which firebase-admin reads anyway. */
  emulators?: EmulatorHosts
  /** Host name browsers use for the Storage emulator, when it differs from its bind host. */
  publicHost?: string
  /** `host:port` browsers use for Storage, when the emulator host given is a server-only listener. */
  storagePublicHost?: string
  /** The origin browsers download Storage objects from, when it is one HTTPS origin (a pilot's). */
  storagePublicOrigin?: string
  /** Wipe the project's data first (emulators only). */
  reset?: boolean
  /** Do nothing when the project already has data. */
  ifEmpty?: boolean
  /** Seeding demo accounts with a known password into a real project needs this explicit yes. */
  allowRealProject?: boolean
  /**
   * Seed a project marked as a pilot: only a throwaway pilot under test (`make test-e2e-containers
   * TARGET=pilot` fills one through its admin listener); a municipality's pilot never gets this.
   */
  allowPilot?: boolean
  /** 'YYYY-MM-DD' in Europe/Copenhagen; defaults to today. */
  today?: string
  log?: (line: string) => void
}

export type SeedResult = { skipped: boolean; steps: StepResult[]; ms: number }

/** The URL a browser downloads an object from (what getDownloadURL returns). */
export function storageDownloadUrl(options: {
  bucket: string
  emulators: EmulatorHosts
  publicHost?: string
  storagePublicHost?: string
  storagePublicOrigin?: string
}): (path: string, token: string) => string {
  const storageHost = options.emulators.storage
  const origin = options.storagePublicOrigin
    ? options.storagePublicOrigin
    : !storageHost
      ? 'https://firebasestorage.googleapis.com'
      : options.storagePublicHost
        ? `http://${options.storagePublicHost}`
        : `http://${options.publicHost ? `${options.publicHost}:${storageHost.split(':').pop()}` : storageHost}`
  return (path, token) =>
    `${origin}/v0/b/${options.bucket}/o/${encodeURIComponent(path)}?alt=media&token=${encodeURIComponent(token)}`
}

/**
 * Seeds the demo world into a project: Auth users, Storage files and Firestore documents, each step
 * idempotent (it writes only what differs) and running concurrently with the others.
 */
export async function seed(options: SeedOptions): Promise<SeedResult> {
  const started = Date.now()
  const log = options.log ?? (() => {})
  if (options.today !== undefined && !isDay(options.today)) {
    throw new Error(`today must be a calendar day YYYY-MM-DD, not '${options.today}'`)
  }
  const emulators = options.emulators ?? readEmulatorHosts()
  const onEmulators = Boolean(emulators.auth && emulators.firestore && emulators.storage)
  if (!onEmulators && !options.allowRealProject) {
    throw new Error(
      'refusing to seed demo accounts into a real project: set FIREBASE_AUTH_EMULATOR_HOST, FIRESTORE_EMULATOR_HOST and FIREBASE_STORAGE_EMULATOR_HOST, or pass --allow-real-project',
    )
  }
  await assertEmulatorsReachable(emulators)
  await assertBackendHasRoom(emulators.firestore)
  const clients = connectFirebase({ ...options, emulators })
  try {
    // A pilot runs on emulator-lite; a real project is never asked (nothing is read before --reset refuses).
    if (onEmulators && !options.allowPilot && (await isPilot(clients.db))) {
      throw new Error(
        `project ${options.projectId} is a pilot: the demo seed (38 accounts with a published password) never runs against it`,
      )
    }
    if (options.ifEmpty && !options.reset && (await hasData(clients.db))) {
      log(`seed: project ${options.projectId} already has data; nothing to do (make seed ARGS=--reset reseeds it)`)
      return { skipped: true, steps: [], ms: Date.now() - started }
    }
    const today = options.today ?? dayInCopenhagen(new Date())
    log(`seed: project ${options.projectId}, bucket ${options.bucket}, today ${today} (Europe/Copenhagen)`)
    if (options.reset) {
      const resetStarted = Date.now()
      const { files } = await resetProject(clients, emulators)
      log(
        `seed: reset         wiped Firestore, Auth users and ${files} storage files in ${Date.now() - resetStarted} ms`,
      )
    }
    const dataset = buildDataset({ today, downloadUrl: storageDownloadUrl({ ...options, emulators }) })
    const logged = (unit: string, verb?: string) => (result: StepResult) => {
      log(formatStep(result, unit, verb))
      return result
    }
    const steps = await Promise.all([
      syncAuthUsers(clients.auth, dataset.authUsers).then(logged('users', 'created/updated')),
      syncFiles(clients.bucket, dataset.files).then(logged('files', 'uploaded')),
      ...DOC_KINDS.map((kind) =>
        syncDocuments(
          clients.db,
          kind,
          dataset.docs.filter((doc) => doc.kind === kind),
        ).then(logged('docs')),
      ),
    ])
    const ms = Date.now() - started
    const written = steps.reduce((sum, step) => sum + step.written, 0)
    const total = steps.reduce((sum, step) => sum + step.total, 0)
    log(`seed: done: ${total} items, ${written} written, ${total - written} unchanged in ${ms} ms`)
    return { skipped: false, steps, ms }
  } finally {
    await clients.close()
  }
}
