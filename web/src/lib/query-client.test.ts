import { LocationSchema } from '@bosted/domain/location'
import { expect, test } from 'vitest'
import { queryClient } from './query-client.ts'

const retry = queryClient.getDefaultOptions().queries?.retry as (failureCount: number, error: unknown) => boolean

test('a document that fails its domain schema is not read again: it would fail the same way', () => {
  const result = LocationSchema.safeParse({ id: 'L1' })
  expect(result.success).toBe(false)
  expect(retry(0, result.error)).toBe(false)
})

test('a denied or missing read is not retried; a failed connection is, twice', () => {
  expect(retry(0, { code: 'permission-denied' })).toBe(false)
  expect(retry(0, { code: 'not-found' })).toBe(false)
  const offline = new TypeError('Failed to fetch')
  expect(retry(0, offline)).toBe(true)
  expect(retry(1, offline)).toBe(true)
  expect(retry(2, offline)).toBe(false)
})
