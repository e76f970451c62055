import { expect, test } from 'vitest'
import { clientAddressOf } from './client-address.ts'

test('behind a loopback proxy the address comes from X-Real-IP, then the first X-Forwarded-For', () => {
  expect(clientAddressOf('127.0.0.1', { realIp: '203.0.113.9' }, 'loopback')).toBe('203.0.113.9')
  expect(clientAddressOf('::1', { forwardedFor: '203.0.113.9, 10.0.0.1' }, 'loopback')).toBe('203.0.113.9')
  expect(clientAddressOf('::ffff:127.0.0.1', { realIp: 'junk', forwardedFor: '2001:db8::1' }, 'loopback')).toBe(
    '2001:db8::1',
  )
})

test('proxy headers from an untrusted peer are ignored, so they cannot dodge the rate limit', () => {
  expect(clientAddressOf('203.0.113.5', { realIp: '198.51.100.1' }, 'loopback')).toBe('203.0.113.5')
  expect(clientAddressOf('127.0.0.1', { realIp: '198.51.100.1' }, 'none')).toBe('127.0.0.1')
  expect(clientAddressOf('10.1.2.3', { realIp: '198.51.100.1' }, 'all')).toBe('198.51.100.1')
  expect(clientAddressOf('127.0.0.1', {}, 'loopback')).toBe('127.0.0.1')
})
