import type { CollectionId } from '@bosted/domain/paths'
import type { core, ZodMiniType } from 'zod/mini'

/** The kinds of record a list holds, as the staff notice names them. */
export type RecordKind = CollectionId

/** A list as read: the records that fit their schema, and how many did not (left out, reported once). */
export type Parsed<T> = { items: T[]; skipped: number }

export const EMPTY_PARSED: Parsed<never> = { items: [], skipped: 0 }

/**
 * Parses each record of a list on its own: a record that fails its schema (as an older version, a
 * migration or an import may leave one) is left out and counted, never the whole list lost. One
 * console warning per list names the kind, the count and the fields at fault — never a value or an
 * id, so no personal data reaches the console.
 */
export function parseRecords<S, T>(kind: RecordKind, records: readonly S[], parse: (record: S) => T): Parsed<T> {
  const items: T[] = []
  const fields = new Set<string>()
  let skipped = 0
  for (const record of records) {
    try {
      items.push(parse(record))
    } catch (error) {
      skipped += 1
      for (const issue of (error as Partial<core.$ZodError>).issues ?? []) fields.add(issue.path.join('.') || '(root)')
    }
  }
  if (skipped > 0)
    console.warn(
      `${kind}: ${skipped} record(s) left out, not fitting the schema${fields.size > 0 ? ` (fields: ${[...fields].sort().join(', ')})` : ''}`,
    )
  return { items, skipped }
}

type Snapshot = { id: string; data(): Record<string, unknown> }

/** Documents of one collection parsed with its domain schema, each with its document id (see parseRecords). */
export function parseDocuments<T extends object>(
  kind: RecordKind,
  schema: ZodMiniType<T>,
  snapshots: readonly Snapshot[],
): Parsed<T & { id: string }> {
  return parseRecords(kind, snapshots, (snapshot) => ({ ...schema.parse(snapshot.data()), id: snapshot.id }))
}

/** Two lists read for one view, as one: their records and their left-out counts added up. */
export function mergeParsed<T>(...lists: readonly Parsed<T>[]): Parsed<T> {
  return { items: lists.flatMap((list) => list.items), skipped: lists.reduce((sum, list) => sum + list.skipped, 0) }
}
