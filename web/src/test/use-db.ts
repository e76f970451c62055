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

/**
 * lib/kept-writes.ts's two writes on the signed-in client, as the full SDK makes them (a set with an id
 * made here; an update with fields removed), with Firestore Lite: the full SDK's cache needs a
 * browser's IndexedDB, and the e2e suite runs that path in Chromium. The rest is the module's own.
 */
export async function keptModule(actual: Record<string, unknown>) {
  const { collection, deleteField, doc, setDoc, updateDoc } = await import('firebase/firestore/lite')
  const written = (path: string, id: string, acked: Promise<void>) => {
    acked.catch(() => {})
    return { path, id, acked }
  }
  return {
    ...actual,
    createKept: async (collectionPath: string, data: Record<string, unknown>) => {
      const reference = doc(collection(await firestoreModule.getDb(), collectionPath))
      return written(reference.path, reference.id, setDoc(reference, data))
    },
    updateKept: async (path: string, fields: Record<string, unknown>, removed: readonly string[] = []) => {
      const reference = doc(await firestoreModule.getDb(), path)
      const removals = Object.fromEntries(removed.map((field) => [field, deleteField()]))
      return written(reference.path, reference.id, updateDoc(reference, { ...fields, ...removals }))
    },
  }
}

/** The id of a kept write once the backend has it (rejects as the backend refused it). */
export async function stored(write: Promise<{ id: string; acked: Promise<void> }>): Promise<string> {
  const { id, acked } = await write
  await acked
  return id
}
