import { expect, test } from 'vitest'
import { isSameOriginWrite, type OriginFacts } from './same-origin.ts'

const write = (facts: Partial<OriginFacts>) =>
  isSameOriginWrite({
    method: 'POST',
    origin: undefined,
    secFetchSite: undefined,
    host: '127.0.0.1:3001',
    allowedOrigins: [],
    ...facts,
  })

test('reads are never refused', () => {
  expect(write({ method: 'GET', origin: 'https://evil.example', secFetchSite: 'cross-site' })).toBe(true)
})

test('a write from the same origin passes, by Sec-Fetch-Site or by Origin matching Host', () => {
  expect(write({ secFetchSite: 'same-origin', origin: 'http://127.0.0.1:8000' })).toBe(true)
  expect(write({ secFetchSite: 'none' })).toBe(true)
  expect(write({ origin: 'http://127.0.0.1:3001' })).toBe(true)
  // nginx forwards Host without the port.
  expect(write({ origin: 'http://127.0.0.1:8000', host: '127.0.0.1' })).toBe(true)
})

test('a write with neither Origin nor Sec-Fetch-Site (curl, server-to-server) passes', () => {
  expect(write({})).toBe(true)
})

test('a write from another site is refused unless its origin is configured', () => {
  expect(write({ origin: 'https://evil.example' })).toBe(false)
  expect(write({ origin: 'null' })).toBe(false)
  expect(write({ secFetchSite: 'cross-site' })).toBe(false)
  expect(write({ secFetchSite: 'same-site', origin: 'http://127.0.0.1:5173' })).toBe(false)
  expect(write({ origin: 'http://127.0.0.1:8000', host: '127.0.0.1:3001' })).toBe(false)
  expect(write({ origin: 'http://127.0.0.1.evil.example', host: '127.0.0.1' })).toBe(false)
  expect(write({ origin: 'https://app.kommune.dk', allowedOrigins: ['https://app.kommune.dk'] })).toBe(true)
  expect(
    write({ secFetchSite: 'cross-site', origin: 'https://app.kommune.dk', allowedOrigins: ['https://app.kommune.dk'] }),
  ).toBe(true)
})
