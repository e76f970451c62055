/**
 * A privileged Firestore query over the REST API's `runQuery`, answered as plain values: the api's
 * one bulk read (Statistik, ADR 0027) without firebase-admin's decoding. firebase-admin maps each
 * document of a REST answer from proto3 JSON to protobuf objects and then to a snapshot; for the
 * ~2,700 projected documents of a large location that took 180–430 ms of the api's CPU, against
 * 60–140 ms for the same answer fetched and parsed as JSON (measured 2026-11-26, ADR 0027).
 */

/** A collection-group query of one location's records in a day range, only the given fields. */
export type PeriodQuery = {
  collectionId: string
  locationId: string
  from: string
  to: string
  /** The fields to read; none reads only the documents' names. */
  fields: readonly string[]
}

/** A document as the query returned it: its path below `documents/` and its decoded fields. */
export type QueriedDocument = { path: string; data: Record<string, unknown> }

export type RunPeriodQuery = (query: PeriodQuery) => Promise<QueriedDocument[]>

/**
 * A value of Firestore's REST wire (proto3 JSON `Value`) as firebase-admin's `data()` gives it for
 * what a schema can accept: strings, numbers, booleans, null, maps and arrays. Timestamps, bytes,
 * references and geo points become tagged objects, which no string or number schema accepts — as
 * firebase-admin's Timestamp, Buffer, DocumentReference and GeoPoint are not accepted either.
 */
export function decodeValue(value: unknown): unknown {
  const wire = (value ?? {}) as Record<string, unknown>
  if ('stringValue' in wire) return wire.stringValue
  if ('integerValue' in wire) return Number(wire.integerValue)
  // NaN and the infinities arrive as strings in proto3 JSON.
  if ('doubleValue' in wire) return Number(wire.doubleValue)
  if ('booleanValue' in wire) return wire.booleanValue
  if ('nullValue' in wire) return null
  if ('mapValue' in wire) return decodeFields((wire.mapValue as { fields?: unknown } | undefined)?.fields)
  if ('arrayValue' in wire) {
    const values = (wire.arrayValue as { values?: unknown } | undefined)?.values
    return Array.isArray(values) ? values.map(decodeValue) : []
  }
  if ('timestampValue' in wire) return { timestamp: wire.timestampValue }
  if ('bytesValue' in wire) return { bytes: wire.bytesValue }
  if ('referenceValue' in wire) return { reference: wire.referenceValue }
  if ('geoPointValue' in wire) return { geoPoint: wire.geoPointValue }
  return undefined
}

/** A document's or a map's fields as a plain object. */
export function decodeFields(fields: unknown): Record<string, unknown> {
  const data: Record<string, unknown> = {}
  if (fields === null || typeof fields !== 'object') return data
  for (const [name, value] of Object.entries(fields)) data[name] = decodeValue(value)
  return data
}

/** The REST body of a PeriodQuery (the same query firebase-admin sends for `where … select`). */
export function structuredQueryOf(query: PeriodQuery) {
  const filter = (fieldPath: string, op: string, stringValue: string) => ({
    fieldFilter: { field: { fieldPath }, op, value: { stringValue } },
  })
  const fields = query.fields.length > 0 ? query.fields : ['__name__']
  return {
    structuredQuery: {
      from: [{ collectionId: query.collectionId, allDescendants: true }],
      select: { fields: fields.map((fieldPath) => ({ fieldPath })) },
      where: {
        compositeFilter: {
          op: 'AND',
          filters: [
            filter('locationId', 'EQUAL', query.locationId),
            filter('day', 'GREATER_THAN_OR_EQUAL', query.from),
            filter('day', 'LESS_THAN_OR_EQUAL', query.to),
          ],
        },
      },
    },
  }
}

/** The id of the document a record belongs to (persons/{id}/registrations/{rid} → id), '' at the root. */
export function parentIdOf(path: string): string {
  const segments = path.split('/')
  return segments.length >= 4 ? (segments.at(-3) ?? '') : ''
}

export type RestQueryOptions = {
  /** `http://host:port` of an emulator, or `https://firestore.googleapis.com`. */
  origin: string
  projectId: string
  /** The request's credentials: the emulator's `Bearer owner`, or a service account's access token. */
  headers(): Promise<Record<string, string>>
}

/**
 * Firestore could not be asked, did not answer in time, or answered that it cannot serve now (429,
 * 5xx): the api answers 503 `unavailable`, as for firebase-admin's UNAVAILABLE (gRPC code 14), never
 * a 500. Its message names the collection and the status or the network error, no person.
 */
export class FirestoreQueryUnavailableError extends Error {
  override name = 'FirestoreQueryUnavailableError'
  readonly code = 14
}

/** The answers that say "not now" rather than "not this request": a quota, an outage, a gateway. */
const isTransientStatus = (status: number) => status === 429 || status >= 500

/**
 * Runs period queries against Firestore's REST API. A refusal of the request itself (4xx) or a broken
 * answer rejects with an Error (a 500: the api asked wrongly); no answer or a transient one with a
 * FirestoreQueryUnavailableError.
 */
export function restPeriodQuery(options: RestQueryOptions): RunPeriodQuery {
  const database = `projects/${encodeURIComponent(options.projectId)}/databases/(default)`
  const prefix = `${database}/documents/`
  return async (query) => {
    let response: Response
    try {
      response = await fetch(`${options.origin}/v1/${database}/documents:runQuery`, {
        method: 'POST',
        headers: { ...(await options.headers()), 'content-type': 'application/json' },
        body: JSON.stringify(structuredQueryOf(query)),
        signal: AbortSignal.timeout(60_000),
      })
    } catch (error) {
      throw new FirestoreQueryUnavailableError(`Firestore could not be asked a ${query.collectionId} query`, {
        cause: error,
      })
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '')
      const message = `Firestore refused a ${query.collectionId} query: ${response.status} ${text.slice(0, 200)}`
      throw isTransientStatus(response.status) ? new FirestoreQueryUnavailableError(message) : new Error(message)
    }
    let answer: unknown
    try {
      answer = await response.json()
    } catch (error) {
      // Not JSON is a broken answer; anything else is the connection breaking off in the middle of it.
      if (error instanceof SyntaxError) throw new Error(`Firestore answered a ${query.collectionId} query with no JSON`)
      throw new FirestoreQueryUnavailableError(`Firestore's answer to a ${query.collectionId} query broke off`, {
        cause: error,
      })
    }
    if (!Array.isArray(answer)) throw new Error(`Firestore answered a ${query.collectionId} query without a list`)
    const documents: QueriedDocument[] = []
    for (const item of answer as { document?: { name?: unknown; fields?: unknown }; error?: unknown }[]) {
      if (item?.error !== undefined) throw new Error(`Firestore broke off a ${query.collectionId} query`)
      const name = item.document?.name
      if (typeof name !== 'string') continue
      documents.push({
        path: name.startsWith(prefix) ? name.slice(prefix.length) : name,
        data: decodeFields(item.document?.fields),
      })
    }
    return documents
  }
}
