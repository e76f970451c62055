import { isDeepStrictEqual } from 'node:util'
import { TOP_LEVEL_COLLECTIONS } from '@bosted/domain/paths'
import type { Firestore } from 'firebase-admin/firestore'
import { chunk, mapLimit } from '../lib/concurrency.ts'
import type { DocKind, PlannedDoc } from '../plan/build-dataset.ts'
import type { StepResult } from './step.ts'

/** Firestore's limit of writes in one commit. */
const BATCH_SIZE = 500
const TOP_LEVEL: readonly DocKind[] = TOP_LEVEL_COLLECTIONS

/**
 * Brings one kind of documents in line with the plan: reads what is there (one query), writes only
 * documents that are missing or differ, with set() in batches. A second run writes nothing, so
 * update times stay as they were. Documents the plan does not name (added in the app) are kept.
 */
export async function syncDocuments(db: Firestore, kind: DocKind, planned: readonly PlannedDoc[]): Promise<StepResult> {
  const started = Date.now()
  const source = TOP_LEVEL.includes(kind) ? db.collection(kind) : db.collectionGroup(kind)
  const snapshot = await source.get()
  const existing = new Map(snapshot.docs.map((doc) => [doc.ref.path, doc.data()]))
  const changed = planned.filter((doc) => !isDeepStrictEqual(existing.get(doc.path), doc.data))
  await mapLimit(chunk(changed, BATCH_SIZE), 3, async (docs) => {
    const batch = db.batch()
    for (const doc of docs) batch.set(db.doc(doc.path), doc.data)
    await batch.commit()
  })
  return {
    name: kind,
    total: planned.length,
    written: changed.length,
    unchanged: planned.length - changed.length,
    ms: Date.now() - started,
  }
}

/** True when the project has any of the documents the seed creates. */
export async function hasData(db: Firestore): Promise<boolean> {
  const found = await Promise.all(TOP_LEVEL.map((kind) => db.collection(kind).limit(1).get()))
  return found.some((snapshot) => !snapshot.empty)
}
