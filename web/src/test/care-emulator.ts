import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { startEmulatorLite } from '@bosted/emulator-lite'
import { deleteApp, type FirebaseApp, initializeApp } from 'firebase/app'
import { connectAuthEmulator, getAuth, signInWithEmailAndPassword } from 'firebase/auth'
import { connectFirestoreEmulator, type Firestore, getFirestore } from 'firebase/firestore/lite'
import { deleteApp as deleteAdminApp, initializeApp as initializeAdminApp } from 'firebase-admin/app'
import { getAuth as getAdminAuth } from 'firebase-admin/auth'
import { type Firestore as AdminFirestore, initializeFirestore } from 'firebase-admin/firestore'

const rules = (name: string) => fileURLToPath(new URL(`../../../${name}`, import.meta.url))
const PASSWORD = 'care-test-1'
export const AT = '2026-11-20T09:00:00.000Z'
export const DAY = '2026-11-20'

/** Staff and person documents as the seed writes them, for the care pages' integration tests. */
export const staff = (id: string, locations: string[], userRole = 'employee') => ({
  id,
  firstName: `Fornavn ${id}`,
  lastName: 'Efternavn',
  createdAt: AT,
  avatarUrl: null,
  contact: null,
  jobRole: 'Pædagog',
  locations,
  userRole,
  settings: { disabled: false },
  locale: 'da',
})

export const person = (id: string, locationId: string, settings: Record<string, unknown> = {}) => ({
  id,
  firstName: `Borger ${id}`,
  lastName: 'Efternavn',
  createdAt: AT,
  avatarUrl: null,
  contact: null,
  settings: {
    answerOptions: [],
    disabled: false,
    includePlaceAnswers: true,
    features: { all: false, freeText: false, speechToText: false, answers: false },
    notifications: null,
    ...settings,
  },
  locale: 'da',
  locationId,
})

export const location = (id: string, persons: string[], answerOptions: string[] = []) => ({
  id,
  createdAt: AT,
  name: `Bosted ${id}`,
  logoUrl: null,
  persons,
  settings: { answerOptions, subscription: null, notifications: { reminderTime: '20:00' } },
})

export const answer = (id: string, entity: 'person' | 'location', value = 3, hidden = false) => ({
  id,
  text: `Svar ${id}`,
  value,
  hidden,
  entity,
  createdAt: AT,
})

export type CareEmulator = {
  admin: AdminFirestore
  /** A web Firestore client signed in as `uid` (an Auth account made for it). */
  signIn(uid: string, claims?: Record<string, unknown>): Promise<Firestore>
  close(): Promise<void>
}

/**
 * A fresh emulator-lite (Firestore + Auth) that enforces the repo's firestore.rules, documents
 * written with firebase-admin (which bypasses the rules), and real users signed in through the web SDK.
 */
export async function startCareEmulator(documents: Record<string, Record<string, unknown>>): Promise<CareEmulator> {
  const projectId = `demo-care-${randomUUID().slice(0, 8)}`
  const emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    authProjectId: projectId,
    inMemory: true,
    firestoreRules: rules('firestore.rules'),
    storageRules: rules('storage.rules'),
  })
  const authHost = `127.0.0.1:${emulator.authPort}`
  // firebase-admin on the privileged listener; the signed-in web clients on the public ports.
  const adminHost = `127.0.0.1:${emulator.adminPort}`
  process.env.FIRESTORE_EMULATOR_HOST = adminHost
  process.env.FIREBASE_AUTH_EMULATOR_HOST = adminHost
  const adminApp = initializeAdminApp({ projectId }, `admin-${projectId}`)
  const admin = initializeFirestore(adminApp, { preferRest: true })
  admin.settings({
    auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
  } as never)
  const batch = admin.batch()
  for (const [path, data] of Object.entries(documents)) batch.set(admin.doc(path), data)
  await batch.commit()

  const apps: FirebaseApp[] = []
  return {
    admin,
    async signIn(uid, claims) {
      const adminAuth = getAdminAuth(adminApp)
      await adminAuth.createUser({ uid, email: `${uid}@care.test`, password: PASSWORD })
      if (claims !== undefined) await adminAuth.setCustomUserClaims(uid, claims)
      const app = initializeApp({ projectId, apiKey: 'fake-api-key' }, `${projectId}-${uid}`)
      apps.push(app)
      const auth = getAuth(app)
      connectAuthEmulator(auth, `http://${authHost}`, { disableWarnings: true })
      await signInWithEmailAndPassword(auth, `${uid}@care.test`, PASSWORD)
      const db = getFirestore(app)
      connectFirestoreEmulator(db, '127.0.0.1', emulator.firestorePort)
      return db
    },
    async close() {
      await Promise.all(apps.map((app) => deleteApp(app)))
      await deleteAdminApp(adminApp)
      await emulator.close()
    },
  }
}

/** Two locations, each with an employee and persons; records on DAY. Used by the page queries' tests. */
export const CARE_WORLD: Record<string, Record<string, unknown>> = {
  'users/emp': staff('emp', ['L1']),
  'users/emp2': staff('emp2', ['L2']),
  'locations/L1': location('L1', ['p1', 'p2'], ['l2', 'l1']),
  'locations/L2': location('L2', ['p3']),
  'locations/L1/answers/l1': answer('l1', 'location', 1),
  'locations/L1/answers/l2': answer('l2', 'location', 2),
  'locations/L1/answers/lh': answer('lh', 'location', 5, true),
  'persons/p1': person('p1', 'L1', { answerOptions: ['a2', 'a1'] }),
  'persons/p2': person('p2', 'L1', { includePlaceAnswers: false }),
  'persons/p3': person('p3', 'L2'),
  'persons/p1/answers/a1': answer('a1', 'person', 4),
  'persons/p1/answers/a2': answer('a2', 'person', 3),
  'persons/p1/answers/ah': answer('ah', 'person', 1, true),
  'persons/p2/answers/b1': answer('b1', 'person', 4),
  ...Object.fromEntries(
    [
      ['n1', 'p1', 'L1', DAY],
      ['n2', 'p1', 'L1', DAY],
      ['n3', 'p2', 'L1', '2026-11-19'],
      ['n4', 'p3', 'L2', DAY],
    ].map(([id, personId, locationId, day]) => [
      `persons/${personId}/notes/${id}`,
      {
        text: 'En rolig dag.',
        day,
        source: 'keyboard',
        createdAt: AT,
        createdBy: locationId === 'L1' ? 'emp' : 'emp2',
        authorName: 'Navn',
        personId,
        locationId,
      },
    ]),
  ),
}

/** CARE_WORLD in a fresh emulator, with `emp` (employee of L1) and `emp2` (of L2) signed in. */
export async function startCareWorld() {
  const emulator = await startCareEmulator(CARE_WORLD)
  const emp = await emulator.signIn('emp', { userRole: 'employee' })
  const emp2 = await emulator.signIn('emp2', { userRole: 'employee' })
  return { emulator, emp, emp2 }
}
