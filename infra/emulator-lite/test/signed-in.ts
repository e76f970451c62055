import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bostedAccessClassifier } from '@bosted/domain/access-classifier'
import { type FirebaseApp, initializeApp } from 'firebase/app'
import { connectAuthEmulator, initializeAuth, inMemoryPersistence, signInWithCustomToken } from 'firebase/auth'
import { signCustomToken } from '../src/auth/custom-token.ts'
import type { ServiceAccountKey } from '../src/auth/keys.ts'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

// What the stream tests (gRPC, WebChannel, listener conformance) share: an emulator-lite on a data
// directory with the given Firestore rules and the app's access classifier, and a signed-in user's
// ID token the way a client gets one (a signed custom token exchanged at Auth).

/** A signed ID token of `uid` from Auth on `authPort`, for a user with the given claims. */
export async function idTokenFor(
  authPort: number,
  serviceAccount: ServiceAccountKey,
  uid: string,
  claims: Record<string, unknown> = { userRole: 'user' },
): Promise<string> {
  const response = await fetch(
    `http://127.0.0.1:${authPort}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: signCustomToken(serviceAccount, uid, claims) }),
    },
  )
  return ((await response.json()) as { idToken: string }).idToken
}

/** A web SDK app named `name`, its Auth signed in at `authPort` as `uid`, a user (`emp` unless said). */
export async function signedInApp(
  authPort: number,
  serviceAccount: ServiceAccountKey,
  project: string,
  name: string,
  uid = 'emp',
): Promise<FirebaseApp> {
  const app = initializeApp({ projectId: project, apiKey: 'fake-api-key' }, name)
  const auth = initializeAuth(app, { persistence: inMemoryPersistence })
  connectAuthEmulator(auth, `http://127.0.0.1:${authPort}`, { disableWarnings: true })
  await signInWithCustomToken(auth, signCustomToken(serviceAccount, uid, { userRole: 'user' }))
  return app
}

/** emulator-lite on free ports and a fresh data directory, enforcing `rules`; `close` removes both. */
export async function startWithRules(
  name: string,
  project: string,
  rules: string,
): Promise<{ emulator: EmulatorLite; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), `emulator-lite-${name}-`))
  writeFileSync(join(dir, 'firestore.rules'), rules)
  const emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    authProjectId: project,
    dataDir: join(dir, 'data'),
    firestoreRules: join(dir, 'firestore.rules'),
    // The app's classifier (injected, ADR 0026): it decides which reads are a person's data.
    accessClassifier: bostedAccessClassifier,
  })
  return {
    emulator,
    close: async () => {
      await emulator.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
