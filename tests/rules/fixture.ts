import { deleteApp, type FirebaseApp, initializeApp } from 'firebase/app'
import { connectAuthEmulator, getAuth, signInWithEmailAndPassword } from 'firebase/auth'
import { connectFirestoreEmulator, type Firestore, getFirestore } from 'firebase/firestore/lite'
import { connectStorageEmulator, type FirebaseStorage, getStorage } from 'firebase/storage'
import { type App, deleteApp as deleteAdminApp, initializeApp as initializeAdminApp } from 'firebase-admin/app'
import { getAuth as getAdminAuth } from 'firebase-admin/auth'
import { type Firestore as AdminFirestore, initializeFirestore } from 'firebase-admin/firestore'
import { getStorage as getAdminStorage } from 'firebase-admin/storage'
import type { RulesTarget } from './rules-target.ts'

export const L1 = 'loc-1'
export const L2 = 'loc-2'
const PASSWORD = 'rules-test-1'
const DAY = '2026-11-20'
const AT = '2026-11-20T09:00:00.000Z'

/** Who calls: each is a real Auth-emulator account (or none), signed in through the web SDK. */
export const PERSONAS = {
  anonymous: null,
  personA: { uid: 'pa' },
  personB: { uid: 'pb' },
  personC: { uid: 'pc' },
  disabledPerson: { uid: 'pd' },
  employee: { uid: 'emp', claims: { userRole: 'employee' } },
  superuser: { uid: 'sup', claims: { userRole: 'superuser' } },
  admin: { uid: 'adm', claims: { admin: true, userRole: 'admin' } },
  disabledStaff: { uid: 'dis', claims: { userRole: 'employee' } },
} as const
export type Persona = keyof typeof PERSONAS

export type Client = { db: Firestore; storage: FirebaseStorage }

const staff = (id: string, locations: string[], userRole: string, disabled = false) => ({
  id,
  firstName: `Fornavn ${id}`,
  lastName: 'Efternavn',
  createdAt: AT,
  avatarUrl: null,
  contact: { email: `${id}@rules.test`, phone: null },
  jobRole: 'Pædagog',
  locations,
  userRole,
  settings: { disabled },
  locale: 'da',
})

const person = (id: string, locationId: string, features: Record<string, boolean>, disabled = false) => ({
  id,
  firstName: `Borger ${id}`,
  lastName: 'Efternavn',
  createdAt: AT,
  avatarUrl: null,
  contact: null,
  settings: {
    answerOptions: [],
    disabled,
    includePlaceAnswers: true,
    features: { all: false, freeText: false, speechToText: false, answers: false, ...features },
    notifications: null,
  },
  locale: 'da',
  locationId,
})

const location = (id: string, persons: string[]) => ({
  id,
  createdAt: AT,
  name: `Bosted ${id}`,
  logoUrl: null,
  persons,
  settings: {
    answerOptions: [],
    subscription: { amount: 1000, createdAt: AT, validUntil: '2027-01-01' },
    notifications: null,
  },
})

export const answer = (id: string, entity: 'person' | 'location', extra: Record<string, unknown> = {}) => ({
  id,
  text: 'Glad',
  value: 4,
  hidden: false,
  entity,
  createdAt: AT,
  ...extra,
})

export const registration = (personId: string, locationId: string, createdBy: string, extra = {}) => ({
  answerId: 'a1',
  text: 'Glad',
  value: 4,
  entity: 'person',
  day: DAY,
  createdAt: AT,
  createdBy,
  personId,
  locationId,
  ...extra,
})

export const note = (personId: string, locationId: string, createdBy: string, extra = {}) => ({
  text: 'En god dag.',
  day: DAY,
  source: 'keyboard',
  createdAt: AT,
  createdBy,
  authorName: 'Navn',
  personId,
  locationId,
  ...extra,
})

/** A note's earlier texts, as corrections left them. */
function earlierTexts(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    text: `Tekst ${i}`,
    at: '2026-11-21T08:00:00.000Z',
    by: 'emp',
    byName: 'Navn',
  }))
}

/** Documents the cases read and change, written with firebase-admin (rules do not apply to it). */
export const DOCUMENTS: Record<string, Record<string, unknown>> = {
  'users/emp': staff('emp', [L1], 'employee'),
  'users/emp2': staff('emp2', [L2], 'employee'),
  'users/emp3': staff('emp3', [L1], 'employee'),
  'users/tmp': staff('tmp', [L1], 'employee'),
  'users/sup': staff('sup', [L1, L2], 'superuser'),
  'users/adm': staff('adm', [L1], 'admin'),
  'users/dis': staff('dis', [L1], 'employee', true),
  'locations/loc-1': location(L1, ['pa', 'pc', 'pd']),
  'locations/loc-2': location(L2, ['pb']),
  'locations/loc-tmp': location('loc-tmp', []),
  'locations/loc-1/answers/l1': answer('l1', 'location'),
  'locations/loc-2/answers/l2': answer('l2', 'location'),
  'persons/pa': person('pa', L1, { answers: true, freeText: true }),
  'persons/pb': person('pb', L2, { all: true }),
  'persons/pc': person('pc', L1, {}),
  'persons/pd': person('pd', L1, { all: true }, true),
  'persons/ptmp': person('ptmp', L1, {}),
  'persons/pa/answers/a1': answer('a1', 'person'),
  'persons/pb/answers/b1': answer('b1', 'person'),
  'persons/pa/registrations/r-emp': registration('pa', L1, 'emp'),
  'persons/pa/registrations/r-emp-del': registration('pa', L1, 'emp'),
  'persons/pa/registrations/r-pa': registration('pa', L1, 'pa'),
  'persons/pa/registrations/r-sup-del': registration('pa', L1, 'pa'),
  'persons/pb/registrations/r-b': registration('pb', L2, 'emp2'),
  'persons/pa/notes/n-emp': note('pa', L1, 'emp'),
  'persons/pa/notes/n-emp2': note('pa', L1, 'emp'),
  'persons/pa/notes/n-sup': note('pa', L1, 'sup'),
  'persons/pa/notes/n-del': note('pa', L1, 'emp'),
  'persons/pb/notes/n-b': note('pb', L2, 'emp2'),
  // Only refused corrections touch n-emp3; n-49 and n-50 carry 49 and 50 (the bound) earlier texts.
  'persons/pa/notes/n-emp3': note('pa', L1, 'emp'),
  'persons/pa/notes/n-49': note('pa', L1, 'emp', { revisions: earlierTexts(49) }),
  'persons/pa/notes/n-50': note('pa', L1, 'emp', { revisions: earlierTexts(50) }),
}

export const OBJECTS = [
  'persons/pa/avatar.png',
  'persons/pb/avatar.png',
  'locations/loc-1/logo.png',
  'users/emp/avatar.png',
]
/** The smallest valid PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

export type Fixture = { clients: Record<Persona, Client>; admin: AdminFirestore; close(): Promise<void> }

/** Accounts, documents and objects of a fresh project, and one signed-in web client per persona. */
export async function createFixture(target: RulesTarget): Promise<Fixture> {
  const { projectId } = target
  const bucket = `${projectId}.appspot.com`
  const adminApps: App[] = []
  const adminFirestore = (host: string) => {
    // firebase-admin reads the emulator's address when a Firestore instance is made.
    process.env.FIRESTORE_EMULATOR_HOST = host
    const app = initializeAdminApp({ projectId, storageBucket: bucket }, `admin-${projectId}-${adminApps.length}`)
    adminApps.push(app)
    const firestore = initializeFirestore(app, { preferRest: true })
    firestore.settings({
      auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
    } as never)
    return { app, firestore }
  }
  process.env.FIREBASE_STORAGE_EMULATOR_HOST = target.storageAdminHost
  process.env.FIREBASE_AUTH_EMULATOR_HOST = target.authAdminHost
  const mirrors = target.mirrorFirestoreAdminHosts.map((host) => adminFirestore(host).firestore)
  const { app: adminApp, firestore: admin } = adminFirestore(target.firestoreAdminHost)
  const adminAuth = getAdminAuth(adminApp)

  for (const [, account] of Object.entries(PERSONAS)) {
    if (account === null) continue
    await adminAuth.createUser({ uid: account.uid, email: `${account.uid}@rules.test`, password: PASSWORD })
    if ('claims' in account) await adminAuth.setCustomUserClaims(account.uid, account.claims)
  }
  for (const firestore of [admin, ...mirrors]) {
    const batch = firestore.batch()
    for (const [path, data] of Object.entries(DOCUMENTS)) batch.set(firestore.doc(path), data)
    await batch.commit()
  }
  const files = getAdminStorage(adminApp).bucket(bucket)
  for (const name of OBJECTS) await files.file(name).save(PNG, { contentType: 'image/png', resumable: false })

  const apps: FirebaseApp[] = []
  const clients = {} as Record<Persona, Client>
  const [authHost, authPort] = target.authHost.split(':')
  for (const [name, account] of Object.entries(PERSONAS) as [Persona, (typeof PERSONAS)[Persona]][]) {
    const app = initializeApp({ projectId, apiKey: 'fake-api-key', storageBucket: bucket }, `${projectId}-${name}`)
    apps.push(app)
    if (account !== null) {
      const auth = getAuth(app)
      connectAuthEmulator(auth, `http://${authHost}:${authPort}`, { disableWarnings: true })
      await signInWithEmailAndPassword(auth, `${account.uid}@rules.test`, PASSWORD)
    }
    const db = getFirestore(app)
    const [fsHost, fsPort] = target.firestoreHost.split(':')
    connectFirestoreEmulator(db, fsHost as string, Number(fsPort))
    const storage = getStorage(app)
    const [stHost, stPort] = target.storageHost.split(':')
    connectStorageEmulator(storage, stHost as string, Number(stPort))
    clients[name] = { db, storage }
  }
  // Disabled accounts are disabled in their documents (the rules' concern), not in Auth: they still
  // hold valid tokens, as an account disabled a minute ago does until its token expires.
  return {
    clients,
    admin,
    async close() {
      for (const app of apps) await deleteApp(app)
      for (const app of adminApps) await deleteAdminApp(app)
    },
  }
}
