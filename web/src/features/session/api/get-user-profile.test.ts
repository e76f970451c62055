import { beforeEach, expect, test, vi } from 'vitest'
import { getUserProfile } from './get-user-profile.ts'

/** users/{id} as stored; a missing document has no data at all. */
let documents: Record<string, Record<string, unknown>> = {}
let failing = new Set<string>()

// Firestore is replaced at its loader: vitest 4 hands the real SDK to the second of two overlapping
// import()s of a factory-mocked 'firebase/firestore/lite' (vitest-dev/vitest#7040).
vi.mock('../../../lib/firestore.ts', () => ({
  getDb: async () => ({}),
  firestoreLite: async () => ({
    doc: (_db: unknown, ...path: string[]) => path.join('/'),
    getDoc: async (path: string) => {
      if (failing.has(path)) throw Object.assign(new Error('down'), { code: 'unavailable' })
      return { data: () => documents[path] }
    },
  }),
}))

beforeEach(() => {
  documents = {}
  failing = new Set()
})

test("a user document's name and locations are read from users/{id}", async () => {
  documents['users/u1'] = { firstName: 'Anna', lastName: 'Hansen', locations: ['a', 'b'] }
  expect(await getUserProfile('u1')).toEqual({
    kind: 'staff',
    firstName: 'Anna',
    lastName: 'Hansen',
    locations: ['a', 'b'],
    avatarUrl: null,
  })
})

test('a user document without a name shows as Demo Bruger', async () => {
  documents['users/u1'] = { locations: ['a'] }
  expect(await getUserProfile('u1')).toEqual({
    kind: 'staff',
    firstName: 'Demo',
    lastName: 'Bruger',
    locations: ['a'],
    avatarUrl: null,
  })
})

test('a missing user document shows as Demo Bruger with no locations', async () => {
  expect(await getUserProfile('gone')).toEqual({
    kind: 'staff',
    firstName: 'Demo',
    lastName: 'Bruger',
    locations: [],
    avatarUrl: null,
  })
})

test('names that are not text fall back to Demo Bruger, and only text location ids are kept', async () => {
  documents['users/u1'] = { firstName: null, lastName: 42, locations: ['a', 7, null, 'b'] }
  expect(await getUserProfile('u1')).toEqual({
    kind: 'staff',
    firstName: 'Demo',
    lastName: 'Bruger',
    locations: ['a', 'b'],
    avatarUrl: null,
  })
})

test('an account with no staff document and a person document is a person (borger)', async () => {
  documents['persons/p1'] = { firstName: 'Jens', lastName: 'Lund', locationId: 'a' }
  expect(await getUserProfile('p1')).toEqual({
    kind: 'person',
    firstName: 'Jens',
    lastName: 'Lund',
    locations: [],
    avatarUrl: null,
  })
})

test('a failure to read the staff document is a failure, not a person', async () => {
  failing.add('users/u9')
  documents['persons/u9'] = { firstName: 'X' }
  await expect(getUserProfile('u9')).rejects.toMatchObject({ code: 'unavailable' })
})

test("the picture shown in the header is the account's https avatar; anything else is none", async () => {
  documents['users/u1'] = { firstName: 'Anna', avatarUrl: 'https://storage.example/a.png' }
  expect((await getUserProfile('u1')).avatarUrl).toBe('https://storage.example/a.png')
  documents['users/u2'] = { firstName: 'Bo', avatarUrl: 'javascript:alert(1)' }
  expect((await getUserProfile('u2')).avatarUrl).toBeNull()
})
