import type { Firestore } from 'firebase-admin/firestore'

/**
 * Session cookies ended by "Log ud" on one device, kept until they would have expired anyway:
 * the documents sessionEnds/{sha256 of the cookie}. No rule matches the collection, so no client
 * reads or writes it; only the api (firebase-admin) does. A record outlives an api restart and is
 * seen by every api instance, so an ended cookie never comes back.
 */
export type EndedSessionStore = {
  has(key: string): Promise<boolean>
  add(key: string, untilMs: number): Promise<void>
  remove(key: string): Promise<void>
}

export const ENDED_SESSIONS_COLLECTION = 'sessionEnds'

/** How many expired records one new ending clears away, so the collection never grows past use. */
const PRUNE_BATCH = 20

export function firestoreEndedSessions(db: Firestore, now: () => number = Date.now): EndedSessionStore {
  const collection = db.collection(ENDED_SESSIONS_COLLECTION)
  return {
    async has(key) {
      const record = await collection.doc(key).get()
      const until = record.get('untilMs')
      return record.exists && typeof until === 'number' && until > now()
    },
    async add(key, untilMs) {
      await collection.doc(key).set({ untilMs })
      const expired = await collection.where('untilMs', '<=', now()).limit(PRUNE_BATCH).get()
      await Promise.all(expired.docs.map((document) => document.ref.delete()))
    },
    async remove(key) {
      await collection.doc(key).delete()
    },
  }
}
