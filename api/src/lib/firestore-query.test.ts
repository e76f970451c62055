import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { freePort } from '@bosted/stack/ports'
import { expect, test } from 'vitest'
import {
  decodeFields,
  decodeValue,
  FirestoreQueryUnavailableError,
  parentIdOf,
  restPeriodQuery,
  structuredQueryOf,
} from './firestore-query.ts'
import { isUnavailable } from './http-error.ts'

test('decodeValue turns proto3 JSON values into the plain values firebase-admin gives', () => {
  expect(decodeValue({ stringValue: 'Godt' })).toBe('Godt')
  expect(decodeValue({ integerValue: '1099511627776' })).toBe(2 ** 40)
  expect(decodeValue({ doubleValue: 2.5 })).toBe(2.5)
  expect(decodeValue({ doubleValue: 'Infinity' })).toBe(Number.POSITIVE_INFINITY)
  expect(decodeValue({ doubleValue: '-Infinity' })).toBe(Number.NEGATIVE_INFINITY)
  expect(decodeValue({ doubleValue: 'NaN' })).toBeNaN()
  expect(decodeValue({ booleanValue: false })).toBe(false)
  expect(decodeValue({ nullValue: 'NULL_VALUE' })).toBeNull()
  expect(decodeValue({ arrayValue: {} })).toEqual([])
  expect(decodeValue({ arrayValue: { values: [{ integerValue: '1' }, { mapValue: {} }] } })).toEqual([1, {}])
  expect(decodeValue({ mapValue: { fields: { a: { mapValue: { fields: { b: { stringValue: 'x' } } } } } } })).toEqual({
    a: { b: 'x' },
  })
})

test('timestamps, bytes, references and geo points stay objects no string or number schema accepts', () => {
  expect(decodeValue({ timestampValue: '2026-10-25T01:30:00.123Z' })).toEqual({ timestamp: '2026-10-25T01:30:00.123Z' })
  expect(decodeValue({ bytesValue: 'aGVq' })).toEqual({ bytes: 'aGVq' })
  expect(decodeValue({ referenceValue: 'projects/p/databases/(default)/documents/a/b' })).toEqual({
    reference: 'projects/p/databases/(default)/documents/a/b',
  })
  expect(decodeValue({ geoPointValue: { latitude: 1, longitude: 2 } })).toEqual({
    geoPoint: { latitude: 1, longitude: 2 },
  })
})

test('what is not a value is undefined, and fields that are not an object decode to none', () => {
  expect(decodeValue({})).toBeUndefined()
  expect(decodeValue(null)).toBeUndefined()
  expect(decodeFields(undefined)).toEqual({})
  expect(decodeFields('x')).toEqual({})
})

test("parentIdOf names the document a record belongs to, or '' at the root", () => {
  expect(parentIdOf('persons/anna/registrations/r1')).toBe('anna')
  expect(parentIdOf('a/b/c/d/notes/n1')).toBe('d')
  expect(parentIdOf('registrations/r1')).toBe('')
})

test('structuredQueryOf asks for the names alone when no field is given', () => {
  const body = structuredQueryOf({ collectionId: 'notes', locationId: 'east', from: 'a', to: 'b', fields: [] })
  expect(body.structuredQuery.select.fields).toEqual([{ fieldPath: '__name__' }])
  expect(body.structuredQuery.from).toEqual([{ collectionId: 'notes', allDescendants: true }])
})

const QUERY = { collectionId: 'registrations', locationId: 'east', from: '2026-10-01', to: '2026-10-30', fields: [] }

/** One period query against the REST API at `origin`. */
const queryAt = (origin: string) => restPeriodQuery({ origin, projectId: 'p', headers: async () => ({}) })(QUERY)

/** Runs one period query against a local server that answers each request with `answer`. */
async function queryAgainst(answer: (response: ServerResponse) => void) {
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => answer(response))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    return await queryAt(`http://127.0.0.1:${port}`).then(
      (documents) => ({ documents, error: undefined }),
      (error: unknown) => ({ documents: undefined, error }),
    )
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

const answerWith = (status: number, body: string) => (response: ServerResponse) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(body)

test('a query Firestore answers reads its documents', async () => {
  const name = 'projects/p/databases/(default)/documents/persons/anna/registrations/r1'
  const { documents } = await queryAgainst(
    answerWith(
      200,
      JSON.stringify([{ document: { name, fields: { value: { integerValue: '3' } } } }, { readTime: 'x' }]),
    ),
  )
  expect(documents).toEqual([{ path: 'persons/anna/registrations/r1', data: { value: 3 } }])
})

test('no answer, a transient status or an answer that breaks off is "unavailable" (503), naming no person', async () => {
  // A port nobody listens on.
  const unreachable = await queryAt(`http://127.0.0.1:${await freePort()}`).catch((error: unknown) => error)
  const outcomes = [
    unreachable,
    (await queryAgainst(answerWith(503, '{"error":{"status":"UNAVAILABLE"}}'))).error,
    (await queryAgainst(answerWith(429, '{"error":{"status":"RESOURCE_EXHAUSTED"}}'))).error,
    (await queryAgainst(answerWith(500, '{"error":{"status":"INTERNAL"}}'))).error,
    // Headers and the start of a list, then the connection drops.
    (
      await queryAgainst((response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
        response.write('[{"document":')
        setTimeout(() => response.destroy(), 20)
      })
    ).error,
  ]
  for (const error of outcomes) {
    expect(error).toBeInstanceOf(FirestoreQueryUnavailableError)
    expect(isUnavailable(error)).toBe(true)
    expect((error as Error).message).toMatch(/ registrations query/)
  }
})

test("a refused request or a broken answer is the api's own error (500), not an outage", async () => {
  const outcomes = [
    (await queryAgainst(answerWith(400, '{"error":{"status":"INVALID_ARGUMENT"}}'))).error,
    (await queryAgainst(answerWith(403, '{"error":{"status":"PERMISSION_DENIED"}}'))).error,
    (await queryAgainst(answerWith(200, 'not json'))).error,
    (await queryAgainst(answerWith(200, '{"not":"a list"}'))).error,
    (await queryAgainst(answerWith(200, '[{"error":{"code":13}}]'))).error,
  ]
  for (const error of outcomes) {
    expect(error).toBeInstanceOf(Error)
    expect(isUnavailable(error)).toBe(false)
  }
})
