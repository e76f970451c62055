import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { bostedAccessClassifier } from '@bosted/domain/access-classifier'
import { PERSON_OBJECTS_ROOT } from '@bosted/domain/paths'
import { startEmulatorLite } from '@bosted/emulator-lite'
import { startOfficialFirestore } from '@bosted/emulator-lite/parity/official-emulator'
import { REPO_ROOT } from '@bosted/stack/env'

export const FIRESTORE_RULES = join(REPO_ROOT, 'firestore.rules')
export const STORAGE_RULES = join(REPO_ROOT, 'storage.rules')

/**
 * Where the access tests run. Clients (the web SDKs, with their users' ID tokens) use the `*Host`
 * addresses; firebase-admin (`Bearer owner`, which bypasses the rules) and the clears and rule loads
 * use the `*AdminHost` addresses, which may be another (privileged) listener of the same emulator.
 */
export type RulesTarget = {
  projectId: string
  firestoreHost: string
  storageHost: string
  authHost: string
  firestoreAdminHost: string
  storageAdminHost: string
  authAdminHost: string
  /**
   * Other Firestore servers (admin addresses) that must hold the fixture's documents too: when
   * Firestore is the official emulator, Storage's rules still read emulator-lite's own Firestore
   * through `firestore.get()`.
   */
  mirrorFirestoreAdminHosts: string[]
  close(): Promise<void>
}

/**
 * - `lite` (default): a fresh emulator-lite (Firestore, Storage and its Auth emulator) that loads the
 *   repo's rule files.
 * - `official-firestore`: Firestore is Google's Cloud Firestore emulator (gcloud, started here with
 *   the repo's `firestore.rules`: production's rules engine); Auth and Storage stay emulator-lite's.
 *   The official Firestore emulator reads the ID tokens emulator-lite's Auth issues (it does not
 *   check signatures). Storage rules cannot run on an official emulator here (firebase-tools'
 *   Storage emulator downloads its rules runtime), so they stay on emulator-lite alone.
 * - with EMULATOR_LITE_TARGET=external: the official emulators named by FIRESTORE_EMULATOR_HOST,
 *   FIREBASE_STORAGE_EMULATOR_HOST and FIREBASE_AUTH_EMULATOR_HOST, started for the project
 *   GCLOUD_PROJECT, which get the same files through their own rule-loading endpoints (as
 *   @firebase/rules-unit-testing does) and are cleared first.
 * Web SDK sign-ins land in the Auth emulator's own project, so the tests use that project throughout.
 */
export async function startRulesTarget(kind: 'lite' | 'official-firestore' = 'lite'): Promise<RulesTarget> {
  if (kind === 'lite' && process.env.EMULATOR_LITE_TARGET === 'external') return externalTarget()
  const projectId = `demo-rules-${randomUUID().slice(0, 8)}`
  const official = kind === 'official-firestore' ? await startOfficialFirestore({ rules: FIRESTORE_RULES }) : null
  const emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    authProjectId: projectId,
    inMemory: true,
    firestoreRules: FIRESTORE_RULES,
    storageRules: STORAGE_RULES,
    // As the stack runs it: a person's picture is read with the reader's identity, never by URL alone.
    tokenDownloadsNeedRules: [PERSON_OBJECTS_ROOT],
    // As the stack injects it: which documents and objects are a person's data for the Adgangslog.
    accessClassifier: bostedAccessClassifier,
  }).catch(async (error) => {
    await official?.close()
    throw error
  })
  const lite = (port: number) => `127.0.0.1:${port}`
  // The privileged address of every emulator-lite service: its admin listener (Auth, Firestore and
  // Storage on one port); the browser-facing ports refuse the owner credential.
  const admin = lite(emulator.adminPort)
  const liteAdmin = { firestore: admin, storage: admin, auth: admin }
  return {
    projectId,
    firestoreHost: official?.host ?? lite(emulator.firestorePort),
    storageHost: lite(emulator.storagePort),
    authHost: lite(emulator.authPort),
    firestoreAdminHost: official?.host ?? liteAdmin.firestore,
    storageAdminHost: liteAdmin.storage,
    authAdminHost: liteAdmin.auth,
    mirrorFirestoreAdminHosts: official ? [liteAdmin.firestore] : [],
    close: async () => {
      await emulator.close()
      await official?.close()
    },
  }
}

async function externalTarget(): Promise<RulesTarget> {
  const {
    FIRESTORE_EMULATOR_HOST: firestoreHost,
    FIREBASE_STORAGE_EMULATOR_HOST: storageHost,
    FIREBASE_AUTH_EMULATOR_HOST: authHost,
    GCLOUD_PROJECT: projectId,
  } = process.env
  if (!firestoreHost || !storageHost || !authHost || !projectId)
    throw new Error(
      'set FIRESTORE_EMULATOR_HOST, FIREBASE_STORAGE_EMULATOR_HOST, FIREBASE_AUTH_EMULATOR_HOST and GCLOUD_PROJECT',
    )
  await call(`http://${authHost}/emulator/v1/projects/${projectId}/accounts`, 'DELETE')
  await call(`http://${firestoreHost}/emulator/v1/projects/${projectId}/databases/(default)/documents`, 'DELETE')
  await call(`http://${firestoreHost}/emulator/v1/projects/${projectId}:securityRules`, 'PUT', FIRESTORE_RULES)
  await call(`http://${storageHost}/internal/setRules`, 'PUT', STORAGE_RULES)
  return {
    projectId,
    firestoreHost,
    storageHost,
    authHost,
    firestoreAdminHost: firestoreHost,
    storageAdminHost: storageHost,
    authAdminHost: authHost,
    mirrorFirestoreAdminHosts: [],
    close: async () => {},
  }
}

async function call(url: string, method: string, rulesFile?: string): Promise<void> {
  const name = rulesFile?.endsWith('storage.rules') ? 'storage.rules' : 'firestore.rules'
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    ...(rulesFile
      ? { body: JSON.stringify({ rules: { files: [{ name, content: readFileSync(rulesFile, 'utf8') }] } }) }
      : {}),
  })
  if (!response.ok) throw new Error(`${method} ${url} failed: ${response.status} ${await response.text()}`)
}
