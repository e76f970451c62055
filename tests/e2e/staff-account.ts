import { randomUUID } from 'node:crypto'
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { getAuth } from 'firebase-admin/auth'
import { initializeFirestore } from 'firebase-admin/firestore'

export type StaffAccount = { uid: string; email: string; password: string; name: string }

/**
 * A fresh employee of Bostedet Solsikken, made beside the app (firebase-admin against the stack's
 * emulators), for journeys that change an account's password: the demo accounts stay as they are.
 */
export async function createEmployee(password = 'start-kode-1234'): Promise<StaffAccount> {
  const id = randomUUID().slice(0, 8)
  const lastName = `Kode${id}`
  const email = `kode-${id}@e2e.dk`
  let app: App | undefined
  try {
    app = initializeApp({ projectId: process.env.FIREBASE_PROJECT_ID ?? 'demo-bosted' }, `staff-${id}`)
    const auth = getAuth(app)
    const record = await auth.createUser({ email, password, displayName: `Test ${lastName}` })
    await auth.setCustomUserClaims(record.uid, { admin: false, userRole: 'employee' })
    const db = initializeFirestore(app, { preferRest: true })
    // The emulator needs no Google credentials: the client sends its owner token, nothing is looked up.
    db.settings({
      auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
    } as never)
    await db
      .collection('users')
      .doc(record.uid)
      .set({
        id: record.uid,
        firstName: 'Test',
        lastName,
        createdAt: new Date().toISOString(),
        avatarUrl: null,
        contact: { email, phone: '' },
        jobRole: 'Medarbejder',
        locations: ['solsikken'],
        userRole: 'employee',
        settings: { disabled: false },
        locale: 'da',
      })
    return { uid: record.uid, email, password, name: `Test ${lastName}` }
  } finally {
    if (app !== undefined) await deleteApp(app)
  }
}
