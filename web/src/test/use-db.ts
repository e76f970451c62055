import type { Firestore } from 'firebase/firestore/lite'

/**
 * The Firestore client lib/firestore.ts hands out in integration tests: a test signs in a user and
 * points the app's api functions at that user's client (vi.mock of lib/firestore.ts reads it).
 */
export const current: { db: Firestore | null } = { db: null }

export const firestoreModule = {
  getDb: async () => {
    if (current.db === null) throw new Error('no signed-in client: set current.db first')
    return current.db
  },
  firestoreLite: () => import('firebase/firestore/lite'),
}
