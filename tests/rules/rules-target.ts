import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startEmulatorLite } from '@bosted/emulator-lite'
import { REPO_ROOT } from '@bosted/stack/env'

export const FIRESTORE_RULES = join(REPO_ROOT, 'firestore.rules')
export const STORAGE_RULES = join(REPO_ROOT, 'storage.rules')

export type RulesTarget = {
  projectId: string
  firestoreHost: string
  storageHost: string
  authHost: string
  /**
   * Where firebase-admin and the owner credential go: emulator-lite's admin listener (Auth,
   * Firestore and Storage on one port); the official emulators take them on their own ports.
   */
  admin: { firestoreHost: string; storageHost: string; authHost: string }
  close(): Promise<void>
}

/**
 * Where the access tests run: a fresh emulator-lite (Firestore, Storage and its Auth emulator) that
 * loads the repo's rule files (the default), or — with EMULATOR_LITE_TARGET=external — the official
 * emulators named by FIRESTORE_EMULATOR_HOST, FIREBASE_STORAGE_EMULATOR_HOST and
 * FIREBASE_AUTH_EMULATOR_HOST, started for the project GCLOUD_PROJECT, which get the same files
 * through their own rule-loading endpoints (as @firebase/rules-unit-testing does) and are cleared first.
 * Web SDK sign-ins land in the Auth emulator's own project, so the tests use that project throughout.
 */
export async function startRulesTarget(): Promise<RulesTarget> {
  if (process.env.EMULATOR_LITE_TARGET === 'external') {
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
      admin: { firestoreHost, storageHost, authHost },
      close: async () => {},
    }
  }
  const projectId = `demo-rules-${randomUUID().slice(0, 8)}`
  const emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    authProjectId: projectId,
    inMemory: true,
    firestoreRules: FIRESTORE_RULES,
    storageRules: STORAGE_RULES,
    // As the stack runs it: a person's picture is read with the reader's identity, never by URL alone.
    tokenDownloadsNeedRules: ['persons/'],
  })
  const admin = `127.0.0.1:${emulator.adminPort}`
  return {
    projectId,
    firestoreHost: `127.0.0.1:${emulator.firestorePort}`,
    storageHost: `127.0.0.1:${emulator.storagePort}`,
    authHost: `127.0.0.1:${emulator.authPort}`,
    admin: { firestoreHost: admin, storageHost: admin, authHost: admin },
    close: () => emulator.close(),
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
