import type { Ctx } from '../../http/core.ts'
import { invalid } from '../../http/errors.ts'
import { type DatabaseRef, parseFieldPath } from '../paths.ts'
import { runQuery } from '../query.ts'
import { type FirestoreService, queryScope, refuseExplain, ruledCaller } from '../service.ts'
import { doubleValue, INT64_MAX, INT64_MIN } from '../values.ts'
import { getNumber, type Value } from '../values-extra.ts'

/** Production's limit on aggregations in one runAggregationQuery. */
export const MAX_AGGREGATIONS = 5

/** `:runAggregationQuery`: count, sum and avg over a query the rules allow to be listed. */
export function runAggregationQuery(
  fs: FirestoreService,
  c: Ctx,
  db: DatabaseRef,
  parent: string,
  body: Record<string, unknown>,
) {
  refuseExplain(body)
  const request = body.structuredAggregationQuery as { aggregations?: unknown; structuredQuery?: unknown } | undefined
  if (typeof request !== 'object' || request === null) throw invalid('structuredAggregationQuery is required')
  if (!Array.isArray(request.aggregations) || request.aggregations.length === 0)
    throw invalid('aggregations are required')
  // The SDKs' own tests match production's wording.
  if (request.aggregations.length > MAX_AGGREGATIONS)
    throw invalid(
      `Aggregation query has too many aggregations: the maximum number of aggregations is ${MAX_AGGREGATIONS}.`,
    )
  const aggregations = request.aggregations.map((raw: unknown, index: number) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('Invalid aggregation')
    const spec = raw as Record<string, unknown>
    const alias = typeof spec.alias === 'string' ? spec.alias : `field_${index + 1}`
    if (spec.count !== undefined) {
      const upTo = Number((spec.count as { upTo?: unknown } | null)?.upTo ?? Number.POSITIVE_INFINITY)
      return { alias, kind: 'count' as const, upTo, segments: [] as string[] }
    }
    const kind = spec.sum !== undefined ? 'sum' : spec.avg !== undefined ? 'avg' : null
    if (kind === null) throw invalid('Unknown aggregation')
    const fieldPath = (spec[kind] as { field?: { fieldPath?: string } } | null)?.field?.fieldPath
    return { alias, kind, upTo: 0, segments: parseFieldPath(fieldPath) }
  })
  const caller = ruledCaller(c)
  fs.guard.list(db, caller, parent, request.structuredQuery)
  const { tx, readTime: at } = fs.consistencyOf(db, body)
  // Firestore aggregates only the documents that have every field a sum or avg of the request names.
  const required = aggregations.filter((aggregation) => aggregation.kind !== 'count')
  // Before the query's offset and limit, as the official emulator does (the differential).
  const docs = runQuery(fs.store, db, parent, request.structuredQuery, at, {
    ...fs.queryOptions,
    mustHave: required.map((aggregation) => aggregation.segments),
  })
  if (at === undefined) for (const doc of docs) tx.state?.reads.set(doc.path, doc.updateTime)
  c.get('access').add((recorder) =>
    recorder.firestoreRead(
      db,
      caller,
      c.env.incoming,
      'RunAggregationQuery',
      docs,
      queryScope(parent, request.structuredQuery),
    ),
  )
  const aggregateFields: Record<string, Value> = {}
  for (const { alias, kind, upTo, segments } of aggregations) {
    if (kind === 'count') {
      aggregateFields[alias] = { integerValue: String(Math.min(docs.length, upTo)) }
      continue
    }
    const numbers = docs.map((doc) => getNumber(doc.fields, segments)).filter((value) => value !== undefined)
    const total = numbers.reduce((sum, n) => sum + n.number, 0)
    if (kind === 'avg') {
      aggregateFields[alias] = numbers.length === 0 ? { nullValue: null } : doubleValue(total / numbers.length)
      continue
    }
    const integerSum = numbers.every((n) => n.isInteger)
      ? numbers.reduce((sum, n) => sum + BigInt(n.integer ?? '0'), 0n)
      : null
    // An integer sum that leaves int64 becomes a double, as in production.
    aggregateFields[alias] =
      integerSum !== null && integerSum <= INT64_MAX && integerSum >= INT64_MIN
        ? { integerValue: integerSum.toString() }
        : doubleValue(total)
  }
  const element: Record<string, unknown> = { result: { aggregateFields }, readTime: fs.responseTime(at) }
  if (tx.isNew) element.transaction = tx.id
  // The last (here only) element says the query is complete, as the official emulator's does.
  element.done = true
  return [element]
}
