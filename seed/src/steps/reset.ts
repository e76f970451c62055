import type { EmulatorHosts } from '../env.ts'
import { mapLimit } from '../lib/concurrency.ts'
import type { FirebaseClients } from '../lib/firebase.ts'

async function emulatorDelete(url: string): Promise<void> {
  const response = await fetch(url, { method: 'DELETE', headers: { Authorization: 'Bearer owner' } })
  if (!response.ok) throw new Error(`DELETE ${url} answered ${response.status}: ${await response.text()}`)
}

/**
 * Wipes the project's Firestore documents, Auth users and Storage objects. Only against emulators:
 * it refuses unless all three emulator hosts are set, so a real project can never be wiped by it.
 */
export async function resetProject(clients: FirebaseClients, emulators: EmulatorHosts): Promise<{ files: number }> {
  const { auth, firestore, storage } = emulators
  if (!auth || !firestore || !storage) {
    throw new Error(
      'refusing to reset: --reset only runs against emulators (FIREBASE_AUTH_EMULATOR_HOST, FIRESTORE_EMULATOR_HOST and FIREBASE_STORAGE_EMULATOR_HOST must all be set)',
    )
  }
  const project = encodeURIComponent(clients.projectId)
  const [, , files] = await Promise.all([
    emulatorDelete(`http://${firestore}/emulator/v1/projects/${project}/databases/(default)/documents`),
    emulatorDelete(`http://${auth}/emulator/v1/projects/${project}/accounts`),
    clients.bucket.getFiles().then(async ([found]) => {
      await mapLimit(found, 8, (file) => file.delete({ ignoreNotFound: true }))
      return found.length
    }),
  ])
  return { files }
}
