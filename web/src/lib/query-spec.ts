/**
 * A Firestore query described as data, so one description serves both SDKs: Firestore Lite reads it
 * once (lib/firestore.ts), the full SDK listens to it (lib/live.ts). Their query objects are not
 * interchangeable, so each builds its own from this.
 */

export type QueryPart =
  | { kind: 'where'; field: string; op: '==' | 'in' | '>=' | '<='; value: unknown }
  | { kind: 'orderBy'; field: string; direction: 'desc' }
  | { kind: 'startAfter'; values: [string, string, string] }
  | { kind: 'limit'; value: number }

/** The documents of one collection (`path`), or of every collection with that id (`group`). */
export type QuerySpec = { source: 'collection' | 'group'; path: string; parts: readonly QueryPart[] }

/** What either SDK offers for building a query: `Db`, `Q`uery, `C`onstraint and `F`ield path are its own types. */
export type QueryKit<Db, Q, C, F> = {
  collection(db: Db, path: string): Q
  collectionGroup(db: Db, collectionId: string): Q
  query(query: Q, ...constraints: C[]): Q
  where(field: string, op: '==' | 'in' | '>=' | '<=', value: unknown): C
  orderBy(field: string | F, direction: 'desc'): C
  startAfter(...values: unknown[]): C
  limit(count: number): C
  documentId(): F
}

/** The SDK's query for `spec`; `__name__` in an orderBy is the document's path. */
export function buildQuery<Db, Q, C, F>(kit: QueryKit<Db, Q, C, F>, db: Db, spec: QuerySpec): Q {
  const source = spec.source === 'group' ? kit.collectionGroup(db, spec.path) : kit.collection(db, spec.path)
  const constraints = spec.parts.map((part) => {
    if (part.kind === 'where') return kit.where(part.field, part.op, part.value)
    if (part.kind === 'orderBy')
      return kit.orderBy(part.field === '__name__' ? kit.documentId() : part.field, part.direction)
    if (part.kind === 'startAfter') return kit.startAfter(...part.values)
    return kit.limit(part.value)
  })
  return kit.query(source, ...constraints)
}

/** `field == value` for each entry, in order. */
export function equalTo(fields: Record<string, unknown>): QueryPart[] {
  return Object.entries(fields).map(([field, value]) => ({ kind: 'where', field, op: '==', value }))
}

/** `from <= field <= to`. */
export function between(field: string, from: string, to: string): QueryPart[] {
  return [
    { kind: 'where', field, op: '>=', value: from },
    { kind: 'where', field, op: '<=', value: to },
  ]
}
