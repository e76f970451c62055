import type { FieldPath, Firestore, Query, QueryConstraint } from 'firebase/firestore/lite'
import { firestoreLite, getDb } from './firestore.ts'
import { buildQuery, type QuerySpec } from './query-spec.ts'

/** The documents `spec` matches, read once with Firestore Lite. */
export async function readQuery(spec: QuerySpec) {
  const [db, lite] = await Promise.all([getDb(), firestoreLite()])
  const snapshot = await lite.getDocs(buildQuery<Firestore, Query, QueryConstraint, FieldPath>(lite, db, spec))
  return snapshot.docs
}
