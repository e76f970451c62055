import { expect, test } from 'vitest'
import { authorizationOf, forwardMaps } from './server.ts'

test('the Authorization of the init headers, whatever its case; none when absent', () => {
  const block = 'X-Goog-Api-Client:gl-js/ fire/12\r\nauthorization: Bearer abc.def.\r\nContent-Type:text/plain\r\n'
  expect(authorizationOf(block)).toBe('Bearer abc.def.')
  expect(authorizationOf('Content-Type:text/plain\r\n')).toBeUndefined()
  expect(authorizationOf(null)).toBeUndefined()
})

test('forward maps in id order from count and ofs; a missing or malformed map is INVALID_ARGUMENT', () => {
  const form = new URLSearchParams({
    count: '2',
    ofs: '5',
    req0___data__: '{"removeTarget":2}',
    req1___data__: '{"removeTarget":4}',
  })
  expect(forwardMaps(form)).toEqual([
    { id: 5, message: { removeTarget: 2 } },
    { id: 6, message: { removeTarget: 4 } },
  ])
  expect(() => forwardMaps(new URLSearchParams({ count: '1', ofs: '0' }))).toThrow('Missing req0___data__')
  expect(() => forwardMaps(new URLSearchParams({ count: '1', ofs: '0', req0___data__: '[1]' }))).toThrow(
    'expected an object',
  )
  expect(() => forwardMaps(new URLSearchParams({ count: '-1' }))).toThrow('Bad count or ofs')
})
