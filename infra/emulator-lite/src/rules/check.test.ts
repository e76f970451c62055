import { expect, test } from 'vitest'
import type { Fields } from '../firestore/values.ts'
import {
  checkFirestore,
  checkFirestoreList,
  checkStorage,
  createLookupBudget,
  type DocLookup,
  parseRules,
  type RulesAuth,
  type StorageResource,
} from './index.ts'

// A care app in miniature: staff are users/{uid} with locations[]; persons belong to a location;
// notes are written by staff and carry a denormalised locationId for collection-group queries.
const CARE_RULES = `rules_version = '2';
service cloud.firestore {
  function signedIn() { return request.auth != null; }
  function isAdmin() { return signedIn() && request.auth.token.get('admin', false) == true; }

  match /databases/{database}/documents {
    function me() { return get(/databases/$(database)/documents/users/$(request.auth.uid)).data; }
    function isStaff() { return signedIn() && exists(/databases/$(database)/documents/users/$(request.auth.uid)); }
    function staffOf(loc) { return isStaff() && loc in me().locations; }

    match /users/{uid} {
      allow get: if isAdmin() || request.auth.uid == uid;
      allow update: if isAdmin()
        || (request.auth.uid == uid
            && !request.resource.data.diff(resource.data).affectedKeys().hasAny(['userRole', 'locations']));
    }
    match /persons/{personId} {
      allow get: if staffOf(resource.data.locationId) || isAdmin();
      allow list: if staffOf(resource.data.locationId);
      allow create, update: if isAdmin();
      match /notes/{noteId} {
        allow get: if staffOf(resource.data.locationId);
        allow create: if staffOf(request.resource.data.locationId)
          && request.resource.data.createdBy == request.auth.uid
          && request.resource.data.createdAt == request.time
          && request.resource.data.text is string
          && request.resource.data.text.size() > 0;
        allow update: if resource.data.createdBy == request.auth.uid
          && request.resource.data.diff(resource.data).affectedKeys().hasOnly(['text']);
        allow delete: if isAdmin();
      }
    }
    match /{path=**}/notes/{noteId} {
      allow list: if staffOf(resource.data.locationId) || resource.data.createdBy == request.auth.uid;
    }
    match /feed/{id} {
      allow list: if request.query.limit <= 50;
    }
    match /scores/{id} {
      allow list: if resource.data.x > 5;
    }
    match /plans/{id} {
      allow list: if resource.data.locations.hasAny(['L1', 'L2']);
    }
    match /stories/{id} {
      allow list: if request.auth != null
        && (resource.data.published == true || resource.data.author == request.auth.uid);
    }
    match /members/{id} {
      allow list: if request.auth.uid in resource.data.members;
      allow get: if id == 'public';
    }
    match /open/{rest=**} {
      allow read;
    }
  }
}
`

const ruleset = parseRules(CARE_RULES, 'care.rules')
const time = new Date('2026-03-01T10:00:00Z')
const timeValue = '2026-03-01T10:00:00.000000000Z'

const s = (stringValue: string) => ({ stringValue })
const arr = (...items: string[]) => ({ arrayValue: { values: items.map(s) } })

const store: Record<string, Fields> = {
  'users/staff1': { locations: arr('L1', 'L2'), userRole: s('employee') },
  'users/staff2': { locations: arr('L3'), userRole: s('employee') },
  'persons/p1': { locationId: s('L1'), name: s('Anna') },
  'persons/p3': { locationId: s('L3'), name: s('Bo') },
  'persons/p1/notes/n1': { locationId: s('L1'), createdBy: s('staff1'), text: s('hello') },
}
const lookup: DocLookup = { get: (path) => store[path] ?? null, getAfter: (path) => store[path] ?? null }

const staff1: RulesAuth = { uid: 'staff1', token: { email: 'staff1@example.com' } }
const staff2: RulesAuth = { uid: 'staff2', token: {} }
const admin: RulesAuth = { uid: 'root', token: { admin: true } }
const person: RulesAuth = { uid: 'p1', token: { firebase: { sign_in_provider: 'password' } } }

function read(path: string, auth: RulesAuth) {
  return checkFirestore(ruleset, {
    database: '(default)',
    path,
    method: 'get',
    auth,
    time,
    resource: store[path] ?? null,
    requestResource: null,
    lookup,
  })
}

function write(path: string, method: 'create' | 'update' | 'delete', auth: RulesAuth, after: Fields | null) {
  return checkFirestore(ruleset, {
    database: '(default)',
    path,
    method,
    auth,
    time,
    resource: store[path] ?? null,
    requestResource: after,
    lookup,
  })
}

type Filter = Record<string, unknown>
const field = (fieldPath: string, op: string | number, value: unknown): Filter => ({
  fieldFilter: { field: { fieldPath }, op, value },
})
const and = (...filters: Filter[]): Filter => ({ compositeFilter: { op: 'AND', filters } })
const or = (...filters: Filter[]): Filter => ({ compositeFilter: { op: 'OR', filters } })

function list(
  collectionId: string,
  auth: RulesAuth,
  query: Record<string, unknown> = {},
  options: { parent?: string; allDescendants?: boolean } = {},
) {
  return checkFirestoreList(ruleset, {
    database: '(default)',
    parent: options.parent ?? '',
    collectionId,
    allDescendants: options.allDescendants ?? false,
    structuredQuery: { from: [{ collectionId, allDescendants: options.allDescendants ?? false }], ...query },
    auth,
    time,
    lookup,
  })
}

test('staff read persons of their own locations only, admins read all, anonymous nobody', () => {
  expect(read('persons/p1', staff1).allowed).toBe(true)
  expect(read('persons/p3', staff1).allowed).toBe(false)
  expect(read('persons/p3', staff2).allowed).toBe(true)
  expect(read('persons/p3', admin).allowed).toBe(true)
  const anonymous = read('persons/p1', null)
  expect(anonymous.allowed).toBe(false)
  expect(anonymous.message).toMatch(/for 'get' @ L\d+/)
})

test('a denial names the failing statement and its line', () => {
  const denied = read('persons/p3', staff1)
  expect(denied.message).toBe("false for 'get' @ L18")
  expect(read('locations/l1', admin)).toEqual({ allowed: false, message: 'No matching allow statements' })
})

test('users read their own document, and only an admin changes roles or locations', () => {
  expect(read('users/staff1', staff1).allowed).toBe(true)
  expect(read('users/staff2', staff1).allowed).toBe(false)
  const own = store['users/staff1'] as Fields
  expect(write('users/staff1', 'update', staff1, { ...own, displayName: s('S') }).allowed).toBe(true)
  expect(write('users/staff1', 'update', staff1, { ...own, userRole: s('admin') }).allowed).toBe(false)
  expect(write('users/staff1', 'update', staff1, { ...own, locations: arr('L1', 'L2', 'L3') }).allowed).toBe(false)
  expect(write('users/staff1', 'update', admin, { ...own, userRole: s('admin') }).allowed).toBe(true)
})

test('notes are created by staff of the location, as themselves, with the server time', () => {
  const note = (createdBy: string, locationId = 'L1', createdAt = timeValue): Fields => ({
    locationId: s(locationId),
    createdBy: s(createdBy),
    createdAt: { timestampValue: createdAt },
    text: s('Ate well'),
  })
  expect(write('persons/p1/notes/new', 'create', staff1, note('staff1')).allowed).toBe(true)
  expect(write('persons/p1/notes/new', 'create', staff1, note('staff2')).allowed).toBe(false)
  expect(write('persons/p1/notes/new', 'create', staff1, note('staff1', 'L3')).allowed).toBe(false)
  expect(write('persons/p1/notes/new', 'create', staff1, note('staff1', 'L1', '2020-01-01T00:00:00Z')).allowed).toBe(
    false,
  )
  expect(write('persons/p1/notes/new', 'create', person, note('p1')).allowed).toBe(false)
})

test('the author corrects only the text of a note, and only an admin deletes one', () => {
  const stored = store['persons/p1/notes/n1'] as Fields
  expect(write('persons/p1/notes/n1', 'update', staff1, { ...stored, text: s('fixed') }).allowed).toBe(true)
  expect(write('persons/p1/notes/n1', 'update', staff1, { ...stored, locationId: s('L2') }).allowed).toBe(false)
  expect(write('persons/p1/notes/n1', 'update', staff2, { ...stored, text: s('x') }).allowed).toBe(false)
  expect(write('persons/p1/notes/n1', 'delete', staff1, null).allowed).toBe(false)
  expect(write('persons/p1/notes/n1', 'delete', admin, null).allowed).toBe(true)
})

test('the error of a missing claim is absorbed by || and a recursive wildcard matches zero or more segments', () => {
  expect(read('persons/p1', admin).allowed).toBe(true)
  expect(read('open/a', null).allowed).toBe(true)
  expect(read('open/a/b/c', null).allowed).toBe(true)
})

test('a batch counts lookups across its writes, and documents it writes are free', () => {
  const budget = createLookupBudget(['persons/p1/notes/new'])
  const note: Fields = {
    locationId: s('L1'),
    createdBy: s('staff1'),
    createdAt: { timestampValue: timeValue },
    text: s('x'),
  }
  for (let i = 0; i < 3; i++) {
    const decision = checkFirestore(ruleset, {
      database: '(default)',
      path: `persons/p1/notes/new${i}`,
      method: 'create',
      auth: staff1,
      time,
      resource: null,
      requestResource: note,
      lookup,
      budget,
    })
    expect(decision.allowed).toBe(true)
  }
  expect(budget.seen).toEqual(new Set(['users/staff1']))
})

test('a list of persons filtered on a location of the staff member is allowed; without the filter it is denied', () => {
  expect(list('persons', staff1, { where: field('locationId', 'EQUAL', s('L1')) }).allowed).toBe(true)
  expect(list('persons', staff1, { where: field('locationId', 5, s('L1')) }).allowed).toBe(true)
  expect(list('persons', staff1, { where: field('locationId', 'EQUAL', s('L3')) }).allowed).toBe(false)
  const unfiltered = list('persons', staff1, { orderBy: [{ field: { fieldPath: 'name' } }], limit: 10 })
  expect(unfiltered.allowed).toBe(false)
  expect(unfiltered.message).toMatch(/Property locationId is undefined/)
})

test('IN and OR split into ways, and one bad way denies the whole query', () => {
  expect(list('persons', staff1, { where: field('locationId', 'IN', arr('L1', 'L2')) }).allowed).toBe(true)
  const mixed = list('persons', staff1, { where: field('locationId', 'IN', arr('L1', 'L3')) })
  expect(mixed.allowed).toBe(false)
  expect(mixed.message).toMatch(/one of 2 ways/)
  expect(
    list('persons', staff1, {
      where: or(field('locationId', 'EQUAL', s('L1')), field('locationId', 'EQUAL', s('L2'))),
    }).allowed,
  ).toBe(true)
  expect(
    list('persons', staff1, {
      where: or(field('locationId', 'EQUAL', s('L1')), field('name', 'EQUAL', s('Bo'))),
    }).allowed,
  ).toBe(false)
  expect(
    list('persons', staff1, {
      where: and(
        field('name', 'EQUAL', s('Anna')),
        or(field('locationId', 'EQUAL', s('L1')), field('locationId', 'EQUAL', s('L2'))),
      ),
    }).allowed,
  ).toBe(true)
})

test('a collection-group list of notes needs the denormalised location or the author', () => {
  const group = { allDescendants: true }
  expect(list('notes', staff1, { where: field('locationId', 'EQUAL', s('L2')) }, group).allowed).toBe(true)
  expect(list('notes', staff1, { where: field('createdBy', 'EQUAL', s('staff1')) }, group).allowed).toBe(true)
  expect(list('notes', staff1, { where: field('createdBy', 'EQUAL', s('staff2')) }, group).allowed).toBe(false)
  expect(list('notes', staff1, {}, group).allowed).toBe(false)
  // A subcollection list is covered by the same recursive match.
  expect(
    list('notes', staff1, { where: field('locationId', 'EQUAL', s('L1')) }, { parent: 'persons/p1' }).allowed,
  ).toBe(true)
})

test('the worked examples of the reference decide as documented', () => {
  const me: RulesAuth = { uid: 'me', token: {} }
  const rows: [string, Record<string, unknown>, boolean][] = [
    ['stories', { where: field('published', 'EQUAL', { booleanValue: true }) }, true],
    ['stories', { where: field('author', 'EQUAL', s('me')) }, true],
    ['stories', {}, false],
    ['stories', { where: field('author', 'EQUAL', s('other')) }, false],
    ['stories', { where: field('author', 'IN', arr('me', 'other')) }, false],
    ['members', { where: field('members', 'ARRAY_CONTAINS', s('me')) }, true],
    ['members', { where: field('members', 'EQUAL', arr('me')) }, true],
    ['scores', { where: field('x', 'GREATER_THAN', { integerValue: '10' }) }, true],
    ['scores', { where: field('x', 'GREATER_THAN_OR_EQUAL', { integerValue: '5' }) }, false],
    [
      'scores',
      { where: field('x', 'IN', { arrayValue: { values: [{ integerValue: '6' }, { integerValue: '42' }] } }) },
      true,
    ],
    [
      'scores',
      { where: field('x', 'IN', { arrayValue: { values: [{ integerValue: '1' }, { integerValue: '6' }] } }) },
      false,
    ],
    ['scores', { where: field('x', 'GREATER_THAN', { doubleValue: 5.5 }) }, false],
    [
      'scores',
      { where: and(field('x', 'GREATER_THAN', { integerValue: '6' }), field('x', 'NOT_EQUAL', { integerValue: '9' })) },
      true,
    ],
    ['feed', { limit: 20 }, true],
    ['feed', { limit: { value: 20 } }, true],
    ['feed', {}, false],
    ['feed', { limit: 100 }, false],
    ['plans', { where: field('locations', 'ARRAY_CONTAINS', s('L2')) }, true],
    ['plans', { where: field('locations', 'ARRAY_CONTAINS_ANY', arr('L1', 'L3')) }, false],
    ['plans', { where: field('locations', 'ARRAY_CONTAINS_ANY', arr('L1', 'L2')) }, true],
  ]
  for (const [collection, query, expected] of rows) {
    expect(list(collection, me, query).allowed, `${collection} ${JSON.stringify(query)}`).toBe(expected)
  }
})

test('a list rule cannot read the unknown document id, but a way pinned by __name__ is decided as that document', () => {
  const me: RulesAuth = { uid: 'me', token: {} }
  const name = (id: string) => ({ referenceValue: `projects/demo/databases/(default)/documents/persons/${id}` })
  expect(list('persons', staff1, { where: field('__name__', 'EQUAL', name('p1')) }).allowed).toBe(true)
  expect(list('persons', staff1, { where: field('__name__', 'EQUAL', name('p3')) }).allowed).toBe(false)
  expect(
    list('persons', staff1, {
      where: field('__name__', 'IN', { arrayValue: { values: [name('p1'), name('p3')] } }),
    }).allowed,
  ).toBe(false)
  expect(list('persons', staff1, { where: field('__name__', 'GREATER_THAN', name('p0')) }).allowed).toBe(false)
  const unbound = checkFirestoreList(
    parseRules(
      "rules_version = '2'; service cloud.firestore { match /databases/{db}/documents/things/{id} { allow list: if id == 'a'; } }",
      'id.rules',
    ),
    {
      database: '(default)',
      parent: '',
      collectionId: 'things',
      allDescendants: false,
      structuredQuery: {},
      auth: me,
      time,
      lookup,
    },
  )
  expect(unbound.allowed).toBe(false)
  expect(unbound.message).toMatch(/not bound/)
})

test('a malformed query is denied, not thrown', () => {
  expect(list('persons', staff1, { where: { fieldFilter: { op: 'BOGUS' } } }).allowed).toBe(false)
  expect(list('persons', staff1, { where: 'nope' }).allowed).toBe(false)
  expect(list('persons', staff1, { where: field('locationId', 'IN', s('L1')) }).allowed).toBe(false)
})

const STORAGE_RULES = `rules_version = '2';
service firebase.storage {
  match /b/{bucket}/o {
    match /avatars/{uid}/{file} {
      allow read: if request.auth != null;
      allow write: if request.auth != null && request.auth.uid == uid
                   && request.resource.size < 2 * 1024 * 1024
                   && request.resource.contentType.matches('image/.*');
      allow delete: if request.auth.uid == uid;
    }
    match /logos/{locationId}/{file} {
      allow read;
      allow write: if firestore.get(/databases/(default)/documents/users/$(request.auth.uid))
                        .data.locations.hasAny([locationId]);
    }
  }
}
`

test('storage rules check owner, size and content type, and read Firestore across services', () => {
  const rules = parseRules(STORAGE_RULES, 'storage.rules')
  const upload = (name: string, auth: RulesAuth, size: number, contentType: string | null, firestore?: DocLookup) =>
    checkStorage(rules, {
      bucket: 'demo.appspot.com',
      name,
      method: 'create',
      auth,
      time,
      resource: null,
      requestResource: { name, bucket: 'demo.appspot.com', size, contentType, timeCreated: time } as StorageResource,
      firestore,
    })
  expect(upload('avatars/staff1/me.png', staff1, 1000, 'image/png').allowed).toBe(true)
  expect(upload('avatars/staff1/me.png', staff2, 1000, 'image/png').allowed).toBe(false)
  expect(upload('avatars/staff1/big.png', staff1, 3 * 1024 * 1024, 'image/png').allowed).toBe(false)
  expect(upload('avatars/staff1/me.txt', staff1, 10, 'text/plain').allowed).toBe(false)
  expect(upload('avatars/staff1/me', staff1, 10, null).allowed).toBe(false)
  expect(upload('logos/L1/logo.png', staff1, 10, 'image/png', lookup).allowed).toBe(true)
  expect(upload('logos/L3/logo.png', staff1, 10, 'image/png', lookup).allowed).toBe(false)
  expect(upload('logos/L1/logo.png', staff1, 10, 'image/png').message).toMatch(/Service call error/)
  const remove = (auth: RulesAuth) =>
    checkStorage(rules, {
      bucket: 'demo.appspot.com',
      name: 'avatars/staff1/me.png',
      method: 'delete',
      auth,
      time,
      resource: { name: 'avatars/staff1/me.png', bucket: 'demo.appspot.com', size: 10, contentType: 'image/png' },
      requestResource: null,
    })
  expect(remove(staff1).allowed).toBe(true)
  expect(remove(staff2).allowed).toBe(false)
  const get = checkStorage(rules, {
    bucket: 'b',
    name: 'avatars/staff1/me.png',
    method: 'get',
    auth: null,
    time,
    resource: null,
    requestResource: null,
  })
  expect(get.allowed).toBe(false)
})

test('a ruleset of the other service denies', () => {
  const storage = parseRules(STORAGE_RULES, 'storage.rules')
  expect(
    checkStorage(ruleset, {
      bucket: 'b',
      name: 'x',
      method: 'get',
      auth: null,
      time,
      resource: null,
      requestResource: null,
    }).allowed,
  ).toBe(false)
  expect(
    checkFirestore(storage, {
      database: '(default)',
      path: 'a/b',
      method: 'get',
      auth: null,
      time,
      resource: null,
      requestResource: null,
      lookup,
    }).allowed,
  ).toBe(false)
})

test('a constraint answers != null, is constraint and in-list, and its error can still be absorbed by ||', () => {
  const rules = parseRules(
    `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /c/{id} {
      allow list: if resource.data.x != null && resource.data.x is constraint && !(resource.data.x in ['a']);
    }
    match /d/{id} {
      allow list: if resource.data.x > 100 || request.auth.token.get('admin', false) == true;
    }
  }
}`,
    'constraint.rules',
  )
  const decide = (collectionId: string, where: Filter, auth: RulesAuth) =>
    checkFirestoreList(rules, {
      database: '(default)',
      parent: '',
      collectionId,
      allDescendants: false,
      structuredQuery: { where },
      auth,
      time,
      lookup,
    }).allowed
  const gt5 = field('x', 'GREATER_THAN', { integerValue: '5' })
  expect(decide('c', gt5, staff1)).toBe(true)
  expect(decide('c', field('x', 'EQUAL', { integerValue: '2' }), staff1)).toBe(false)
  expect(decide('d', gt5, staff1)).toBe(false)
  expect(decide('d', gt5, admin)).toBe(true)
  expect(decide('d', field('x', 'GREATER_THAN', { integerValue: '100' }), staff1)).toBe(true)
})

test('exceeding a limit denies even where || would absorb an ordinary error', () => {
  const lookups = Array.from({ length: 11 }, (_, i) => `exists(/databases/$(database)/documents/users/u${i})`)
  const rules = parseRules(
    `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /x/{id} {
      allow get: if (${lookups.join(' || ')}) || true;
    }
    match /y/{id} {
      allow get: if ${lookups.slice(0, 10).join(' || ')} || true;
    }
  }
}`,
    'limits.rules',
  )
  const decision = checkFirestore(rules, {
    database: '(default)',
    path: 'x/1',
    method: 'get',
    auth: staff1,
    time,
    resource: null,
    requestResource: null,
    lookup,
  })
  expect(decision).toEqual({
    allowed: false,
    message: "Exceeded the maximum number of document lookups (10). for 'get' @ L5",
  })
  expect(
    checkFirestore(rules, {
      database: '(default)',
      path: 'y/1',
      method: 'get',
      auth: staff1,
      time,
      resource: null,
      requestResource: null,
      lookup,
    }).allowed,
  ).toBe(true)
})

test('a storage list is checked at its prefix and needs rules_version 2', () => {
  const source = `service firebase.storage {
  match /b/{bucket}/o {
    match /avatars/{uid} { allow list: if request.auth.uid == uid; }
  }
}`
  const listing = (rules: string, prefix: string, auth: RulesAuth) =>
    checkStorage(parseRules(rules, 'storage.rules'), {
      bucket: 'b',
      name: prefix,
      method: 'list',
      auth,
      time,
      resource: null,
      requestResource: null,
    })
  const v2 = `rules_version = '2';\n${source}`
  expect(listing(v2, 'avatars/staff1/', staff1).allowed).toBe(true)
  expect(listing(v2, 'avatars/staff2/', staff1).allowed).toBe(false)
  expect(listing(source, 'avatars/staff1/', staff1).message).toMatch(/rules_version='2'/)
})
