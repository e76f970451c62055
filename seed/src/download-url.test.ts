import { expect, test } from 'vitest'
import { storageDownloadUrl } from './seed-project.ts'

const options = {
  bucket: 'demo-bosted.appspot.com',
  emulators: { auth: undefined, firestore: undefined, storage: '127.0.0.1:9098' },
}

test('download URLs name the public Storage host when the seed itself talks to the admin listener', () => {
  const url = storageDownloadUrl({ ...options, storagePublicHost: 'localhost:9199' })('persons/p1/avatar.png', 't')
  expect(url).toBe('http://localhost:9199/v0/b/demo-bosted.appspot.com/o/persons%2Fp1%2Favatar.png?alt=media&token=t')
})

test('without a public Storage host the emulator host (or PUBLIC_HOST with its port) is used, as before', () => {
  expect(storageDownloadUrl(options)('a', 't')).toBe(
    'http://127.0.0.1:9098/v0/b/demo-bosted.appspot.com/o/a?alt=media&token=t',
  )
  expect(storageDownloadUrl({ ...options, publicHost: 'pilot.example' })('a', 't')).toBe(
    'http://pilot.example:9098/v0/b/demo-bosted.appspot.com/o/a?alt=media&token=t',
  )
})

test("a pilot's one origin serves the downloads under its own paths", () => {
  const url = storageDownloadUrl({ ...options, storagePublicOrigin: 'https://bosted.kommune.dk:8443' })('a b', 't')
  expect(url).toBe('https://bosted.kommune.dk:8443/v0/b/demo-bosted.appspot.com/o/a%20b?alt=media&token=t')
})
