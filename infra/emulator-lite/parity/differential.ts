import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import type { Firestore } from 'firebase-admin/firestore'
import { declaredDifference } from './declared.ts'
import {
  aggregations,
  buildQuery,
  changeToSdk,
  type Doc,
  dataToSdk,
  docs as docsArbitrary,
  normalise,
  type QueryShape,
  queryShape,
  type WriteOp,
  writeOp,
} from './model.ts'
import type { Target, Targets } from './targets.ts'

/** What one operation gave: a result, normalised, or the error's status (never its wording). */
export type Outcome = { ok: unknown } | { error: string; message?: string }

const STATUS = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
]

async function outcome(work: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: await work() }
  } catch (error) {
    const code = (error as { code?: unknown }).code
    const message = String((error as Error).message).slice(0, 300)
    if (typeof code === 'number') return { error: STATUS[code] ?? String(code), message }
    if (typeof code === 'string') return { error: code, message }
    // Thrown by the SDK before anything was sent: the same on both sides.
    return { error: `sdk: ${(error as Error).message}` }
  }
}

/** A case's own corner of the database, so cases never see each other's documents. */
export type Place = { root: string; groupId: string }
let counter = 0
export const newPlace = (): Place => {
  counter += 1
  return { root: `k${process.pid}x${counter}/d`, groupId: `g${counter}` }
}

const docPath = (place: Place, doc: Doc) =>
  doc.parent === 'top' ? `${place.root}/${place.groupId}/${doc.id}` : `${place.root}/s/q/${place.groupId}/${doc.id}`

export async function seed(db: Firestore, place: Place, docs: Doc[]): Promise<void> {
  if (docs.length === 0) return
  const batch = db.batch()
  for (const doc of docs) batch.set(db.doc(docPath(place, doc)), dataToSdk(db, doc.data, place.root))
  await batch.commit()
}

const relative = (place: Place, path: string) =>
  path.startsWith(`${place.root}/`) ? path.slice(place.root.length + 1) : path

export function runQuery(db: Firestore, place: Place, shape: QueryShape): Promise<Outcome> {
  return outcome(async () => {
    const snapshot = await buildQuery(db, shape, place.root, place.groupId).get()
    return snapshot.docs.map((doc) => [relative(place, doc.ref.path), normalise(doc.data(), place.root)])
  })
}

export function runAggregation(db: Firestore, place: Place, shape: QueryShape): Promise<Outcome> {
  return outcome(async () => {
    const snapshot = await buildQuery(db, shape, place.root, place.groupId).aggregate(aggregations).get()
    return normalise(snapshot.data(), place.root)
  })
}

/** The documents of the case's collection, ordered by name: the state a write sequence left. */
async function state(db: Firestore, place: Place): Promise<unknown> {
  const snapshot = await db.collection(`${place.root}/${place.groupId}`).get()
  return snapshot.docs.map((doc) => [doc.id, normalise(doc.data(), place.root)])
}

/** Writes as one batch, one transaction (reading each document first), or one by one. */
export async function runWrites(
  db: Firestore,
  place: Place,
  ops: WriteOp[],
  mode: 'batch' | 'transaction' | 'single',
): Promise<Outcome[]> {
  const ref = (id: string) => db.doc(`${place.root}/${place.groupId}/${id}`)
  type Writer = {
    set(r: unknown, d: unknown, o?: unknown): unknown
    create(r: unknown, d: unknown): unknown
    update(r: unknown, d: unknown): unknown
    delete(r: unknown, p?: unknown): unknown
  }
  const apply = (writer: Writer, op: WriteOp) => {
    const r = ref(op.id)
    if (op.kind === 'set') writer.set(r, dataToSdk(db, op.data, place.root), { merge: op.merge })
    else if (op.kind === 'create') writer.create(r, dataToSdk(db, op.data, place.root))
    else if (op.kind === 'update')
      writer.update(
        r,
        Object.fromEntries(Object.entries(op.changes).map(([k, c]) => [k, changeToSdk(db, c, place.root)])),
      )
    else writer.delete(r, op.mustExist ? { exists: true } : undefined)
  }
  // Every commit goes through a transaction of one attempt: over REST, firebase-admin reads any 409
  // (ALREADY_EXISTS as well as ABORTED) as ABORTED, and retries a plain batch's commit on it without
  // end, against either emulator. In a transaction it fails at once, on both alike.
  const commit = (group: WriteOp[], read: boolean) =>
    outcome(() =>
      db.runTransaction(
        async (tx) => {
          const seen = []
          if (read)
            for (const id of new Set(group.map((op) => op.id))) {
              const snapshot = await tx.get(ref(id))
              seen.push([id, snapshot.exists ? normalise(snapshot.data(), place.root) : 'missing'])
            }
          for (const op of group) apply(tx as unknown as Writer, op)
          return seen
        },
        { maxAttempts: 1 },
      ),
    )
  const results: Outcome[] = []
  if (mode === 'single') for (const op of ops) results.push(await commit([op], false))
  else results.push(await commit(ops, mode === 'transaction'))
  results.push(await outcome(() => state(db, place)))
  return results
}

/** listDocuments (with missing parents of subcollections) and listCollections of the case's root. */
export function runListing(db: Firestore, place: Place): Promise<Outcome> {
  return outcome(async () => {
    const documents = await db.collection(`${place.root}/${place.groupId}`).listDocuments()
    const parents = await db.collection(`${place.root}/s`).listDocuments()
    const collections = await db.doc(place.root).listCollections()
    return {
      documents: documents.map((doc) => doc.id),
      parents: parents.map((doc) => doc.id),
      collections: collections.map((collection) => collection.id).sort(),
    }
  })
}

/** A difference neither fixed nor declared: the message carries the whole case, to reproduce it. */
export class Difference extends Error {}

/** Error messages are shown, never compared: their wording may differ. */
const withoutMessages = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutMessages)
    : value !== null && typeof value === 'object' && 'error' in value
      ? { error: (value as { error: unknown }).error }
      : value

export function compare(what: string, input: unknown, lite: unknown, official: unknown): void {
  if (isDeepStrictEqual(withoutMessages(lite), withoutMessages(official))) return
  if (declaredDifference(what, input, lite, official) !== undefined) return
  throw new Difference(
    `${what} differs\n  input:         ${show(input)}\n  emulator-lite: ${show(lite)}\n  official:      ${show(official)}`,
  )
}

const show = (value: unknown) =>
  JSON.stringify(value, (_key, v) =>
    typeof v === 'number' && !Number.isFinite(v) ? String(v) : Object.is(v, -0) ? '-0' : v,
  )

export type RunOptions = { seed: number; numRuns: number; verbose?: boolean }

/** Queries and aggregations over random documents: the same answers from both. */
export function queryProperty(targets: Targets) {
  return fc.asyncProperty(docsArbitrary, fc.array(queryShape, { minLength: 1, maxLength: 4 }), async (docs, shapes) => {
    const place = newPlace()
    if (process.env.PARITY_VERBOSE) console.error(show({ docs, shapes }))
    await Promise.all([seed(targets.lite.db, place, docs), seed(targets.official.db, place, docs)])
    for (const shape of shapes) {
      const [a, b] = await both(targets, (t) => runQuery(t.db, place, shape))
      compare('query', { docs, shape }, a, b)
      if (shape.limitToLast === undefined && shape.offset === undefined) {
        const [c, d] = await both(targets, (t) => runAggregation(t.db, place, shape))
        compare('aggregation', { docs, shape }, c, d)
      }
    }
  })
}

/** Batched writes, transactions and single writes with preconditions and transforms. */
export function writeProperty(targets: Targets) {
  return fc.asyncProperty(
    docsArbitrary.map((docs) => docs.filter((doc) => doc.parent === 'top')),
    fc.array(writeOp, { minLength: 1, maxLength: 4 }),
    fc.constantFrom<'batch' | 'transaction' | 'single'>('batch', 'transaction', 'single'),
    async (docs, ops, mode) => {
      const place = newPlace()
      if (process.env.PARITY_VERBOSE) console.error(show({ docs, ops, mode }))
      await Promise.all([seed(targets.lite.db, place, docs), seed(targets.official.db, place, docs)])
      const [a, b] = await both(targets, (t) => runWrites(t.db, place, ops, mode))
      compare(`writes (${mode})`, { docs, ops }, a, b)
      const [c, d] = await both(targets, (t) => runListing(t.db, place))
      compare('listing', { docs, ops }, c, d)
    },
  )
}

/** Sequentially: the two must not share the machine's two cores while being compared. */
async function both<T>(targets: Targets, work: (target: Target) => Promise<T>): Promise<[T, T]> {
  const a = await work(targets.lite)
  if (process.env.PARITY_VERBOSE) console.error('  emulator-lite done')
  const b = await work(targets.official)
  if (process.env.PARITY_VERBOSE) console.error('  official done')
  return [a, b]
}
