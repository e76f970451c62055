import { expect, test } from 'vitest'
import { isReadWithIdentity, storageObjectOfUrl } from './storage-object.ts'

test('reads bucket and path out of production and emulator download URLs', () => {
  expect(
    storageObjectOfUrl(
      'https://firebasestorage.googleapis.com/v0/b/bosted-prod.firebasestorage.app/o/persons%2Fp1%2Favatar?alt=media&token=abc',
    ),
  ).toEqual({ bucket: 'bosted-prod.firebasestorage.app', path: 'persons/p1/avatar' })
  expect(
    storageObjectOfUrl(
      'http://127.0.0.1:9199/v0/b/demo-bosted.appspot.com/o/users%2Fu%C3%A6%2Favatar?alt=media&token=t',
    ),
  ).toEqual({ bucket: 'demo-bosted.appspot.com', path: 'users/uæ/avatar' })
})

test('any other URL is no stored object', () => {
  for (const url of [
    'https://example.com/persons/p1/avatar.png',
    'blob:http://localhost/1234',
    'data:image/png;base64,AAAA',
    'not a url',
    'http://127.0.0.1:9199/v0/b/bucket/o/',
    'http://127.0.0.1:9199/v0/b/bucket/o/%E0%A4%A',
    'ftp://host/v0/b/bucket/o/persons%2Fp1%2Favatar',
  ])
    expect(storageObjectOfUrl(url), url).toBeNull()
})

test("only a person's objects are read with the user's identity", () => {
  expect(isReadWithIdentity({ bucket: 'b', path: 'persons/p1/avatar' })).toBe(true)
  expect(isReadWithIdentity({ bucket: 'b', path: 'users/u1/avatar' })).toBe(false)
  expect(isReadWithIdentity({ bucket: 'b', path: 'locations/l1/logo' })).toBe(false)
})
