import { ANSWERS, NOTES, REGISTRATIONS, TOP_LEVEL_COLLECTIONS } from '@bosted/domain/paths'
import { readEmulatorHosts } from '../env.ts'
import { connectFirebase, type FirebaseClients } from '../lib/firebase.ts'

/** Test helpers that talk to the integration stack's emulators (hosts from the global setup). */
export function emulatorHosts() {
  const hosts = readEmulatorHosts()
  if (!hosts.auth || !hosts.firestore || !hosts.storage) throw new Error('integration tests need the emulator hosts')
  return { auth: hosts.auth, firestore: hosts.firestore, storage: hosts.storage }
}

export function clientsFor(projectId: string): FirebaseClients {
  return connectFirebase({ projectId, bucket: `${projectId}.appspot.com`, emulators: readEmulatorHosts() })
}

/**
 * Email/password sign-in through the Auth emulator's REST API (what the web SDK calls). The
 * emulator maps API keys to its default project, so `targetProjectId` (allowed with the owner
 * credential) picks the test's own project.
 */
export async function signIn(
  projectId: string,
  email: string,
  password: string,
): Promise<{ ok: true; localId: string; claims: Record<string, unknown> } | { ok: false; error: string }> {
  const response = await fetch(
    `http://${emulatorHosts().auth}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify({ email, password, returnSecureToken: true, targetProjectId: projectId }),
    },
  )
  const body = (await response.json()) as { localId?: string; idToken?: string; error?: { message: string } }
  if (!response.ok || !body.idToken || !body.localId) return { ok: false, error: body.error?.message ?? 'unknown' }
  const payload = body.idToken.split('.')[1] ?? ''
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
  return { ok: true, localId: body.localId, claims }
}

/** path → update time of every document the seed writes (top-level and subcollections). */
export async function updateTimes(clients: FirebaseClients): Promise<Map<string, string>> {
  const { db } = clients
  const snapshots = await Promise.all([
    ...TOP_LEVEL_COLLECTIONS.map((name) => db.collection(name).get()),
    ...[ANSWERS, REGISTRATIONS, NOTES].map((name) => db.collectionGroup(name).get()),
  ])
  return new Map(snapshots.flatMap((snapshot) => snapshot.docs.map((doc) => [doc.ref.path, doc.updateTime.valueOf()])))
}
