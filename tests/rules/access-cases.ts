import { randomUUID } from 'node:crypto'
import {
  arrayRemove,
  arrayUnion,
  collection,
  collectionGroup,
  deleteDoc,
  doc,
  getCount,
  getDoc,
  getDocs,
  limit,
  or,
  type QueryCompositeFilterConstraint,
  query,
  setDoc,
  updateDoc,
  where,
} from 'firebase/firestore/lite'
import { getBytes, getMetadata, ref, uploadBytes } from 'firebase/storage'
import { answer, type Client, L1, L2, note, type Persona, PNG, registration } from './fixture.ts'

// The access model of docs/decisions/0004-access-model.md as a table: who, what, and whether the
// rules allow it. Every case goes through the official web SDKs with a real Auth-emulator token.
export type Case = [who: Persona, what: string, expected: 'allow' | 'deny', run: (client: Client) => Promise<unknown>]

const get = (path: string) => (c: Client) => getDoc(doc(c.db, path))
const list =
  (path: string, ...constraints: Parameters<typeof query>[1][]) =>
  (c: Client) =>
    getDocs(query(collection(c.db, path), ...constraints))
const listWhere = (path: string, filter: QueryCompositeFilterConstraint) => (c: Client) =>
  getDocs(query(collection(c.db, path), filter))
const group =
  (id: string, ...constraints: Parameters<typeof query>[1][]) =>
  (c: Client) =>
    getDocs(query(collectionGroup(c.db, id), ...constraints))
const set = (path: string, data: Record<string, unknown>) => (c: Client) => setDoc(doc(c.db, path), data)
const update = (path: string, data: Record<string, unknown>) => (c: Client) => updateDoc(doc(c.db, path), data)
const remove = (path: string) => (c: Client) => deleteDoc(doc(c.db, path))
const fresh = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`
const upload =
  (name: string, contentType: string, bytes: Uint8Array = PNG) =>
  (c: Client) =>
    uploadBytes(ref(c.storage, name), bytes, { contentType })

const newStaff = (locations: string[], userRole: string, extra = {}) => ({
  firstName: 'Ny',
  lastName: 'Kollega',
  createdAt: '2026-11-20T09:00:00.000Z',
  jobRole: 'Medarbejder',
  locations,
  userRole,
  settings: { disabled: false },
  ...extra,
})
const newPerson = (locationId: string, extra = {}) => ({
  firstName: 'Ny',
  lastName: 'Borger',
  createdAt: '2026-11-20T09:00:00.000Z',
  avatarUrl: null,
  contact: null,
  settings: { answerOptions: [], disabled: false, includePlaceAnswers: true, features: {}, notifications: null },
  locale: 'da',
  locationId,
  ...extra,
})
const revision = (by: string) => ({ text: 'En god dag.', at: '2026-11-21T09:00:00.000Z', by, byName: 'Navn' })

export const CASES: Case[] = [
  // ── users ──
  ['anonymous', 'gets a staff document', 'deny', get('users/emp')],
  ['anonymous', 'lists staff of a location', 'deny', list('users', where('locations', 'array-contains', L1))],
  ['personA', 'gets a staff document', 'deny', get('users/emp')],
  ['personA', 'lists staff of its location', 'deny', list('users', where('locations', 'array-contains', L1))],
  ['personA', "writes userRole 'admin' into its own users document", 'deny', set('users/pa', { userRole: 'admin' })],
  ['personA', 'learns that it has no staff document', 'allow', get('users/pa')],
  ['personA', "gets a staff member's document", 'deny', get('users/emp')],
  ['employee', 'gets its own staff document', 'allow', get('users/emp')],
  ['employee', 'gets a colleague of its location', 'allow', get('users/sup')],
  ['employee', 'gets staff of another location only', 'deny', get('users/emp2')],
  ['employee', 'lists staff of its location', 'allow', list('users', where('locations', 'array-contains', L1))],
  ['employee', 'lists staff of another location', 'deny', list('users', where('locations', 'array-contains', L2))],
  ['employee', 'lists all staff without a filter', 'deny', list('users')],
  ['employee', 'updates its own name', 'deny', update('users/emp', { firstName: 'Omdøbt' })],
  ['employee', "sets its own userRole to 'admin'", 'deny', update('users/emp', { userRole: 'admin' })],
  ['employee', 'adds a location to its own locations', 'deny', update('users/emp', { locations: arrayUnion(L2) })],
  ['employee', 'creates a staff member', 'deny', (c) => set(`users/${fresh('u')}`, newStaff([L1], 'employee'))(c)],
  ['employee', "changes a colleague's name", 'deny', update('users/emp3', { firstName: 'X' })],
  [
    'superuser',
    'creates an employee of its location',
    'allow',
    (c) => set(`users/${fresh('u')}`, newStaff([L1], 'employee'))(c),
  ],
  ['superuser', 'creates a superuser', 'deny', (c) => set(`users/${fresh('u')}`, newStaff([L1], 'superuser'))(c)],
  ['superuser', 'creates an admin', 'deny', (c) => set(`users/${fresh('u')}`, newStaff([L1], 'admin'))(c)],
  [
    'superuser',
    'creates staff of a location not its own',
    'deny',
    (c) => set(`users/${fresh('u')}`, newStaff(['loc-3'], 'employee'))(c),
  ],
  [
    'superuser',
    'creates staff with an unknown field',
    'deny',
    (c) => set(`users/${fresh('u')}`, newStaff([L1], 'employee', { isRoot: true }))(c),
  ],
  ['superuser', "changes an employee's job role", 'allow', update('users/emp3', { jobRole: 'Sygeplejerske' })],
  [
    'superuser',
    'creates an employee whose name has a right-to-left override',
    'deny',
    (c) => set(`users/${fresh('u')}`, newStaff([L1], 'employee', { firstName: 'Ny \u202EnegallK' }))(c),
  ],
  [
    'superuser',
    'creates an employee whose last name has a control character',
    'deny',
    (c) => set(`users/${fresh('u')}`, newStaff([L1], 'employee', { lastName: 'Kol\u0007lega' }))(c),
  ],
  [
    'superuser',
    'creates an employee with a 100-character first name',
    'allow',
    (c) => set(`users/${fresh('u')}`, newStaff([L1], 'employee', { firstName: 'x'.repeat(100) }))(c),
  ],
  [
    'superuser',
    'renames an employee with a zero-width space',
    'deny',
    update('users/emp3', { firstName: 'Em\u200Bma' }),
  ],
  [
    'superuser',
    'creates an employee with an unknown key in its settings',
    'deny',
    (c) =>
      set(
        `users/${fresh('u')}`,
        newStaff([L1], 'employee', { settings: { disabled: false, blob: 'x'.repeat(10_000) } }),
      )(c),
  ],
  [
    'superuser',
    'creates an employee with a contact map carrying an unknown key',
    'deny',
    (c) =>
      set(`users/${fresh('u')}`, newStaff([L1], 'employee', { contact: { email: 'a@b.dk', phone: null, x: 1 } }))(c),
  ],
  ['superuser', 'disables an employee', 'allow', update('users/emp3', { 'settings.disabled': false })],
  ['superuser', 'promotes an employee to superuser', 'deny', update('users/emp3', { userRole: 'superuser' })],
  ['superuser', 'moves an employee to another location', 'deny', update('users/emp3', { locations: ['loc-3'] })],
  ['superuser', "changes an admin's name", 'deny', update('users/adm', { firstName: 'X' })],
  ['superuser', 'deletes a staff document', 'deny', remove('users/tmp')],
  ['admin', 'lists all staff', 'allow', list('users')],
  ['admin', 'gets staff of a location it does not belong to', 'allow', get('users/emp2')],
  ['admin', "changes an employee's role", 'allow', update('users/emp3', { userRole: 'superuser' })],
  ['admin', "sets an employee's locations", 'allow', update('users/emp3', { locations: [L1, L2] })],
  ['admin', 'creates an admin', 'allow', (c) => set(`users/${fresh('u')}`, newStaff([L1], 'admin'))(c)],
  ['admin', 'deletes a staff document', 'allow', remove('users/tmp')],
  ['admin', 'writes a user with an unknown role', 'deny', (c) => set(`users/${fresh('u')}`, newStaff([L1], 'root'))(c)],
  ['disabledStaff', 'gets its own staff document', 'deny', get('users/dis')],
  ['disabledStaff', 'lists staff of its location', 'deny', list('users', where('locations', 'array-contains', L1))],

  // ── locations ──
  ['anonymous', 'gets a location', 'deny', get(`locations/${L1}`)],
  ['personA', 'gets its own location', 'deny', get(`locations/${L1}`)],
  ['personA', 'lists locations', 'deny', list('locations')],
  ['employee', 'gets its location', 'allow', get(`locations/${L1}`)],
  ['employee', 'gets another location', 'deny', get(`locations/${L2}`)],
  ['employee', 'lists locations', 'deny', list('locations')],
  ['employee', 'renames its location', 'deny', update(`locations/${L1}`, { name: 'Nyt navn' })],
  ['employee', 'adds a person to its location', 'deny', update(`locations/${L1}`, { persons: arrayUnion('px') })],
  ['superuser', 'gets its second location', 'allow', get(`locations/${L2}`)],
  [
    'superuser',
    'adds a person id to its location',
    'allow',
    update(`locations/${L1}`, { persons: arrayUnion('pnew') }),
  ],
  [
    'superuser',
    'takes a person id out of its location',
    'deny',
    update(`locations/${L1}`, { persons: arrayRemove('pa') }),
  ],
  ['superuser', 'renames its location', 'deny', update(`locations/${L1}`, { name: 'Nyt navn' })],
  [
    'superuser',
    "rewrites its location's subscription history",
    'deny',
    update(`locations/${L1}`, { 'settings.subscriptionHistory': [] }),
  ],
  [
    'superuser',
    'turns on cloud dictation for its location',
    'deny',
    update(`locations/${L1}`, { 'settings.features.cloudDictation': true }),
  ],
  [
    'admin',
    'turns on cloud dictation for a location',
    'allow',
    update(`locations/${L1}`, { 'settings.features.cloudDictation': true }),
  ],
  [
    'admin',
    "writes the copy of a location's features its persons read",
    'allow',
    set(`locations/${L1}/shared/features`, { dictation: true }),
  ],
  [
    'admin',
    "writes the copy of a location's features with a key that is no feature",
    'deny',
    set(`locations/${L1}/shared/features`, { dictation: true, blob: 'x'.repeat(10_000) }),
  ],
  [
    'admin',
    "adds an unknown key to a location's settings",
    'deny',
    update(`locations/${L1}`, { 'settings.blob': 'x'.repeat(10_000) }),
  ],
  [
    'admin',
    'renames a location with a right-to-left override',
    'deny',
    update(`locations/${L1}`, { name: 'Bosted \u202Enrot' }),
  ],
  [
    'superuser',
    "writes the copy of its location's features",
    'deny',
    set(`locations/${L1}/shared/features`, { dictation: false }),
  ],
  ['personA', "reads its location's features", 'allow', get(`locations/${L1}/shared/features`)],
  ['personB', "reads another location's features", 'deny', get(`locations/${L1}/shared/features`)],
  ['employee', "reads its location's features", 'allow', get(`locations/${L1}/shared/features`)],
  [
    'superuser',
    "extends its location's subscription",
    'deny',
    update(`locations/${L1}`, { 'settings.subscription.validUntil': '2030-01-01' }),
  ],
  [
    'superuser',
    'creates a location',
    'deny',
    (c) => set(`locations/${fresh('l')}`, { name: 'Nyt', createdAt: 'x', persons: [], settings: {} })(c),
  ],
  ['superuser', 'deletes a location', 'deny', remove(`locations/${L2}`)],
  ['admin', 'lists every location', 'allow', list('locations')],
  ['admin', 'gets a location it does not belong to', 'allow', get(`locations/${L2}`)],
  [
    'admin',
    "extends a location's subscription",
    'allow',
    update(`locations/${L1}`, { 'settings.subscription.validUntil': '2030-01-01' }),
  ],
  [
    'admin',
    'creates a location',
    'allow',
    (c) => set(`locations/${fresh('l')}`, { name: 'Nyt', createdAt: 'x', persons: [], settings: {} })(c),
  ],
  [
    'admin',
    'creates a location without a name',
    'deny',
    (c) => set(`locations/${fresh('l')}`, { createdAt: 'x', persons: [] })(c),
  ],
  ['admin', 'deletes a location', 'allow', remove('locations/loc-tmp')],
  ['disabledStaff', 'gets its location', 'deny', get(`locations/${L1}`)],

  // ── location answer options ──
  ['anonymous', "lists a location's answer options", 'deny', list(`locations/${L1}/answers`)],
  ['employee', "lists its location's answer options", 'allow', list(`locations/${L1}/answers`)],
  ['employee', "lists another location's answer options", 'deny', list(`locations/${L2}/answers`)],
  ['personA', "lists its location's answer options", 'allow', list(`locations/${L1}/answers`)],
  ['personA', "lists another location's answer options", 'deny', list(`locations/${L2}/answers`)],
  ['personB', 'gets an answer option of another location', 'deny', get(`locations/${L1}/answers/l1`)],
  ['disabledPerson', "lists its location's answer options", 'deny', list(`locations/${L1}/answers`)],
  [
    'employee',
    'adds an answer option to its location',
    'deny',
    (c) => set(`locations/${L1}/answers/${fresh('a')}`, answer('x', 'location'))(c),
  ],
  [
    'superuser',
    'adds an answer option to its location',
    'allow',
    (c) => set(`locations/${L1}/answers/${fresh('a')}`, answer('x', 'location'))(c),
  ],
  [
    'superuser',
    'adds an answer option whose value is text',
    'deny',
    (c) => set(`locations/${L1}/answers/${fresh('a')}`, answer('x', 'location', { value: 'fire' }))(c),
  ],
  [
    'superuser',
    'adds an answer option with an empty text',
    'deny',
    (c) => set(`locations/${L1}/answers/${fresh('a')}`, answer('x', 'location', { text: '' }))(c),
  ],
  ['admin', "hides another location's answer option", 'allow', update(`locations/${L2}/answers/l2`, { hidden: true })],

  // ── persons ──
  ['anonymous', 'lists all persons', 'deny', list('persons')],
  ['anonymous', 'gets a person', 'deny', get('persons/pa')],
  ['employee', 'lists the persons of its location', 'allow', list('persons', where('locationId', '==', L1))],
  [
    'employee',
    'counts the persons of its location',
    'allow',
    (c) => getCount(query(collection(c.db, 'persons'), where('locationId', '==', L1))),
  ],
  ['employee', 'lists the persons of another location', 'deny', list('persons', where('locationId', '==', L2))],
  ['employee', 'lists persons without a location filter', 'deny', list('persons')],
  ['employee', 'lists persons ordered and limited but unfiltered', 'deny', list('persons', limit(5))],
  [
    'employee',
    'lists persons of its own and another location (in)',
    'deny',
    list('persons', where('locationId', 'in', [L1, L2])),
  ],
  [
    'superuser',
    'lists persons of both its locations (in)',
    'allow',
    list('persons', where('locationId', 'in', [L1, L2])),
  ],
  [
    'superuser',
    'lists persons of both its locations (or)',
    'allow',
    listWhere('persons', or(where('locationId', '==', L1), where('locationId', '==', L2))),
  ],
  [
    'superuser',
    'lists persons of its location or a foreign one (or)',
    'deny',
    listWhere('persons', or(where('locationId', '==', L1), where('locationId', '==', 'loc-3'))),
  ],
  ['employee', 'gets a person of its location', 'allow', get('persons/pa')],
  ['employee', 'gets a person of another location', 'deny', get('persons/pb')],
  ['personA', 'gets its own person document', 'allow', get('persons/pa')],
  ['personA', 'gets another person', 'deny', get('persons/pc')],
  ['personA', 'lists the persons of its location', 'deny', list('persons', where('locationId', '==', L1))],
  ['disabledPerson', 'gets its own person document', 'deny', get('persons/pd')],
  ['personA', 'turns on all its own features', 'deny', update('persons/pa', { 'settings.features.all': true })],
  ['employee', 'creates a person', 'deny', (c) => set(`persons/${fresh('p')}`, newPerson(L1))(c)],
  ['employee', 'updates a person', 'deny', update('persons/pa', { firstName: 'Omdøbt' })],
  ['superuser', 'creates a person at its location', 'allow', (c) => set(`persons/${fresh('p')}`, newPerson(L1))(c)],
  [
    'superuser',
    'creates a person at a location not its own',
    'deny',
    (c) => set(`persons/${fresh('p')}`, newPerson('loc-3'))(c),
  ],
  [
    'superuser',
    'creates a person without a location',
    'deny',
    (c) => set(`persons/${fresh('p')}`, newPerson(L1, { locationId: null }))(c),
  ],
  [
    'superuser',
    'creates a person with an unknown field',
    'deny',
    (c) => set(`persons/${fresh('p')}`, newPerson(L1, { ssn: '010101-1234' }))(c),
  ],
  ['superuser', 'renames a person of its location', 'allow', update('persons/pa', { lastName: 'Nyt efternavn' })],
  [
    'superuser',
    'renames a person with Danish letters, a hyphen and an apostrophe',
    'allow',
    update('persons/pa', { lastName: "Ærø-Østergård O'Åse" }),
  ],
  ['superuser', 'renames a person with a NUL character', 'deny', update('persons/pa', { firstName: 'An\u0000na' })],
  [
    'superuser',
    'renames a person with a right-to-left override',
    'deny',
    update('persons/pa', { lastName: 'Hansen \u202Egpj.exe' }),
  ],
  ['superuser', 'renames a person with a zero-width joiner', 'deny', update('persons/pa', { firstName: 'An\u200Dna' })],
  ['superuser', 'renames a person with a byte-order mark', 'deny', update('persons/pa', { lastName: '\uFEFFHansen' })],
  ['superuser', 'renames a person with a line break', 'deny', update('persons/pa', { lastName: 'Han\nsen' })],
  ['superuser', 'renames a person to 101 characters', 'deny', update('persons/pa', { firstName: 'x'.repeat(101) })],
  [
    'superuser',
    'creates a person with an unknown key in its settings',
    'deny',
    (c) =>
      set(
        `persons/${fresh('p')}`,
        newPerson(L1, {
          settings: { answerOptions: [], disabled: false, features: {}, notifications: null, blob: 'x'.repeat(10_000) },
        }),
      )(c),
  ],
  [
    'superuser',
    'turns on a made-up feature for a person',
    'deny',
    update('persons/pa', { 'settings.features.everything': true }),
  ],
  [
    'superuser',
    'creates a person with 201 answer options',
    'deny',
    (c) =>
      set(
        `persons/${fresh('p')}`,
        newPerson(L1, {
          settings: {
            answerOptions: Array.from({ length: 201 }, (_, i) => `a${i}`),
            disabled: false,
            includePlaceAnswers: true,
            features: {},
            notifications: null,
          },
        }),
      )(c),
  ],
  [
    'superuser',
    'creates a person with a contact map carrying an unknown key',
    'deny',
    (c) => set(`persons/${fresh('p')}`, newPerson(L1, { contact: { email: 'a@b.dk', phone: null, notes: 'x' } }))(c),
  ],
  [
    'superuser',
    'creates a person with an email and a phone',
    'allow',
    (c) => set(`persons/${fresh('p')}`, newPerson(L1, { contact: { email: 'a@b.dk', phone: '12345678' } }))(c),
  ],
  ['superuser', 'moves a person to a location not its own', 'deny', update('persons/pa', { locationId: 'loc-3' })],
  ['superuser', 'deletes a person', 'deny', remove('persons/ptmp')],
  ['admin', 'lists all persons', 'allow', list('persons')],
  ['admin', 'deletes a person', 'allow', remove('persons/ptmp')],
  ['admin', 'lists every registration (collection group)', 'allow', group('registrations')],
  ['admin', 'lists every note (collection group)', 'allow', group('notes')],
  ['disabledStaff', 'lists the persons of its location', 'deny', list('persons', where('locationId', '==', L1))],

  // ── person answer options ──
  ['employee', "lists a person's answer options", 'allow', list('persons/pa/answers')],
  ['employee', "lists answer options of another location's person", 'deny', list('persons/pb/answers')],
  ['personA', 'lists its own answer options', 'allow', list('persons/pa/answers')],
  ['personA', "lists another person's answer options", 'deny', list('persons/pb/answers')],
  [
    'employee',
    'adds an answer option to a person',
    'deny',
    (c) => set(`persons/pa/answers/${fresh('a')}`, answer('x', 'person'))(c),
  ],
  [
    'superuser',
    'adds an answer option to a person of its location',
    'allow',
    (c) => set(`persons/pa/answers/${fresh('a')}`, answer('x', 'person'))(c),
  ],

  // ── registrations ──
  ['employee', "lists a person's registrations", 'allow', list('persons/pa/registrations')],
  ['employee', "lists registrations of another location's person", 'deny', list('persons/pb/registrations')],
  [
    'employee',
    "lists its location's registrations of a day (collection group)",
    'allow',
    group('registrations', where('locationId', '==', L1), where('day', '==', '2026-11-20')),
  ],
  [
    'employee',
    "lists another location's registrations (collection group)",
    'deny',
    group('registrations', where('locationId', '==', L2)),
  ],
  ['employee', 'lists every registration (collection group)', 'deny', group('registrations')],
  ['personA', 'lists its own registrations', 'allow', list('persons/pa/registrations')],
  ['personA', "lists another person's registrations", 'deny', list('persons/pb/registrations')],
  [
    'personA',
    "lists its location's registrations (collection group)",
    'deny',
    group('registrations', where('locationId', '==', L1)),
  ],
  ['disabledStaff', "lists a person's registrations", 'deny', list('persons/pa/registrations')],
  [
    'employee',
    'registers for a person of its location',
    'allow',
    (c) => set(`persons/pa/registrations/${fresh('r')}`, registration('pa', L1, 'emp'))(c),
  ],
  [
    'employee',
    "registers for today (Copenhagen's day, ahead of UTC's around midnight)",
    'allow',
    (c) =>
      set(
        `persons/pa/registrations/${fresh('r')}`,
        registration('pa', L1, 'emp', {
          day: new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(new Date()),
        }),
      )(c),
  ],
  [
    'employee',
    'registers on a day still to come (next year)',
    'deny',
    (c) =>
      set(
        `persons/pa/registrations/${fresh('r')}`,
        registration('pa', L1, 'emp', { day: `${new Date().getUTCFullYear() + 1}-01-15` }),
      )(c),
  ],
  [
    'employee',
    'registers in the name of a colleague',
    'deny',
    (c) => set(`persons/pa/registrations/${fresh('r')}`, registration('pa', L1, 'sup'))(c),
  ],
  [
    'employee',
    "registers for another location's person",
    'deny',
    (c) => set(`persons/pb/registrations/${fresh('r')}`, registration('pb', L2, 'emp'))(c),
  ],
  [
    'employee',
    'registers with a wrong locationId',
    'deny',
    (c) => set(`persons/pa/registrations/${fresh('r')}`, registration('pa', L2, 'emp'))(c),
  ],
  [
    'employee',
    'registers under another person id',
    'deny',
    (c) => set(`persons/pa/registrations/${fresh('r')}`, registration('pc', L1, 'emp'))(c),
  ],
  [
    'employee',
    'registers with a day not YYYY-MM-DD',
    'deny',
    (c) => set(`persons/pa/registrations/${fresh('r')}`, registration('pa', L1, 'emp', { day: '20-11-2026' }))(c),
  ],
  [
    'employee',
    'registers a value that is text',
    'deny',
    (c) => set(`persons/pa/registrations/${fresh('r')}`, registration('pa', L1, 'emp', { value: '4' }))(c),
  ],
  [
    'employee',
    'registers with an unknown field',
    'deny',
    (c) => set(`persons/pa/registrations/${fresh('r')}`, registration('pa', L1, 'emp', { extra: 1 }))(c),
  ],
  [
    'employee',
    'registers with a comment over 500 characters',
    'deny',
    (c) =>
      set(`persons/pa/registrations/${fresh('r')}`, registration('pa', L1, 'emp', { comment: 'x'.repeat(501) }))(c),
  ],
  [
    'employee',
    'registers with its name',
    'allow',
    (c) => set(`persons/pa/registrations/${fresh('r')}`, registration('pa', L1, 'emp', { createdByName: 'Emma' }))(c),
  ],
  [
    'employee',
    'registers with a name over 201 characters (a full name of two 100-character names)',
    'deny',
    (c) =>
      set(
        `persons/pa/registrations/${fresh('r')}`,
        registration('pa', L1, 'emp', { createdByName: 'x'.repeat(202) }),
      )(c),
  ],
  [
    'employee',
    'registers with a name carrying a bidi isolate (U+2066)',
    'deny',
    (c) =>
      set(
        `persons/pa/registrations/${fresh('r')}`,
        registration('pa', L1, 'emp', { createdByName: 'Emma \u2066Hansen' }),
      )(c),
  ],
  [
    'personA',
    'registers for itself (answers feature)',
    'allow',
    (c) => set(`persons/pa/registrations/${fresh('r')}`, registration('pa', L1, 'pa'))(c),
  ],
  [
    'personC',
    'registers for itself without the answers feature',
    'deny',
    (c) => set(`persons/pc/registrations/${fresh('r')}`, registration('pc', L1, 'pc'))(c),
  ],
  [
    'personA',
    'registers for another person',
    'deny',
    (c) => set(`persons/pc/registrations/${fresh('r')}`, registration('pc', L1, 'pa'))(c),
  ],
  [
    'disabledPerson',
    'registers for itself',
    'deny',
    (c) => set(`persons/pd/registrations/${fresh('r')}`, registration('pd', L1, 'pd'))(c),
  ],
  [
    'employee',
    'corrects its own registration',
    'allow',
    update('persons/pa/registrations/r-emp', { value: 3, updatedAt: '2026-11-20T10:00:00.000Z', updatedBy: 'emp' }),
  ],
  [
    'employee',
    "corrects the person's own registration",
    'deny',
    update('persons/pa/registrations/r-pa', { value: 3, updatedBy: 'emp' }),
  ],
  [
    'employee',
    'hands its registration to a colleague',
    'deny',
    update('persons/pa/registrations/r-emp', { createdBy: 'sup', updatedBy: 'emp' }),
  ],
  [
    'superuser',
    "corrects another author's registration",
    'allow',
    update('persons/pa/registrations/r-pa', { value: 2, updatedBy: 'sup' }),
  ],
  [
    'superuser',
    "puts its own name on another author's registration",
    'deny',
    update('persons/pa/registrations/r-pa', { createdByName: 'Leder', updatedBy: 'sup' }),
  ],
  ['employee', 'deletes its own registration', 'allow', remove('persons/pa/registrations/r-emp-del')],
  ['employee', "deletes another author's registration", 'deny', remove('persons/pa/registrations/r-pa')],
  ['superuser', "deletes another author's registration", 'allow', remove('persons/pa/registrations/r-sup-del')],

  // ── notes ──
  ['anonymous', 'lists every note (collection group)', 'deny', group('notes')],
  ['personA', 'lists every note (collection group)', 'deny', group('notes')],
  ['personA', 'lists its own notes', 'allow', list('persons/pa/notes')],
  ['personB', "lists another location's person's notes", 'deny', list('persons/pa/notes')],
  ['employee', "lists its location's notes (collection group)", 'allow', group('notes', where('locationId', '==', L1))],
  [
    'employee',
    "lists another location's notes (collection group)",
    'deny',
    group('notes', where('locationId', '==', L2)),
  ],
  ['employee', "lists a person's notes", 'allow', list('persons/pa/notes')],
  [
    'employee',
    'writes a note for a person of its location',
    'allow',
    (c) => set(`persons/pa/notes/${fresh('n')}`, note('pa', L1, 'emp'))(c),
  ],
  [
    'employee',
    'writes an empty note',
    'deny',
    (c) => set(`persons/pa/notes/${fresh('n')}`, note('pa', L1, 'emp', { text: '' }))(c),
  ],
  [
    'employee',
    'writes a diary entry dated next year',
    'deny',
    (c) =>
      set(
        `persons/pa/notes/${fresh('n')}`,
        note('pa', L1, 'emp', { day: `${new Date().getUTCFullYear() + 1}-01-15` }),
      )(c),
  ],
  [
    'employee',
    'writes a note over 5,000 characters',
    'deny',
    (c) => set(`persons/pa/notes/${fresh('n')}`, note('pa', L1, 'emp', { text: 'x'.repeat(5001) }))(c),
  ],
  [
    'employee',
    'writes a note with a made-up history',
    'deny',
    (c) => set(`persons/pa/notes/${fresh('n')}`, note('pa', L1, 'emp', { revisions: [revision('sup')] }))(c),
  ],
  [
    'personA',
    'writes a typed note for itself (freeText)',
    'allow',
    (c) => set(`persons/pa/notes/${fresh('n')}`, note('pa', L1, 'pa'))(c),
  ],
  [
    'personA',
    'writes a dictated note without speechToText',
    'deny',
    (c) => set(`persons/pa/notes/${fresh('n')}`, note('pa', L1, 'pa', { source: 'speech' }))(c),
  ],
  [
    'personB',
    "writes a dictated note for itself ('all')",
    'allow',
    (c) => set(`persons/pb/notes/${fresh('n')}`, note('pb', L2, 'pb', { source: 'speech' }))(c),
  ],
  [
    'personC',
    'writes a note for itself without a feature',
    'deny',
    (c) => set(`persons/pc/notes/${fresh('n')}`, note('pc', L1, 'pc'))(c),
  ],
  [
    'employee',
    'corrects its own note, keeping the earlier text',
    'allow',
    update('persons/pa/notes/n-emp', { text: 'Rettet tekst.', revisions: [revision('emp')] }),
  ],
  [
    'employee',
    'rewrites its own note without keeping the earlier text',
    'deny',
    update('persons/pa/notes/n-emp2', { text: 'Skjult ændring.' }),
  ],
  [
    'employee',
    'corrects with a revision that is not the earlier text',
    'deny',
    update('persons/pa/notes/n-emp2', { text: 'Ny.', revisions: [{ ...revision('emp'), text: 'Opdigtet' }] }),
  ],
  [
    'employee',
    "corrects a colleague's note",
    'deny',
    update('persons/pa/notes/n-sup', { text: 'Ny.', revisions: [revision('emp')] }),
  ],
  [
    'superuser',
    "corrects an employee's note",
    'allow',
    update('persons/pa/notes/n-emp2', { text: 'Rettet af leder.', revisions: [revision('sup')] }),
  ],
  [
    'employee',
    'marks a note deleted',
    'deny',
    update('persons/pa/notes/n-del', {
      deleted: { at: '2026-11-21T09:00:00.000Z', by: 'emp', byName: 'Navn', reason: 'Fejl' },
    }),
  ],
  [
    'superuser',
    'marks a note deleted with a reason',
    'allow',
    update('persons/pa/notes/n-del', {
      deleted: { at: '2026-11-21T09:00:00.000Z', by: 'sup', byName: 'Navn', reason: 'Skrevet på forkert borger' },
    }),
  ],
  [
    'superuser',
    'marks a note deleted without a reason',
    'deny',
    update('persons/pa/notes/n-sup', {
      deleted: { at: '2026-11-21T09:00:00.000Z', by: 'sup', byName: 'Navn', reason: '' },
    }),
  ],
  // Issue 29: a correction's entry was checked only for text, by and at; a 15 MiB key rode along.
  [
    'employee',
    'corrects its own note with an extra key in the revision entry',
    'deny',
    update('persons/pa/notes/n-emp3', { text: 'Ny.', revisions: [{ ...revision('emp'), pad: 'x'.repeat(15_000) }] }),
  ],
  [
    'employee',
    'corrects its own note with a revision attributed to a colleague',
    'deny',
    update('persons/pa/notes/n-emp3', { text: 'Ny.', revisions: [revision('sup')] }),
  ],
  [
    'employee',
    'corrects its own note with a revision whose name has a right-to-left override',
    'deny',
    update('persons/pa/notes/n-emp3', {
      text: 'Ny.',
      revisions: [{ ...revision('emp'), byName: 'Emma \u202Enesnah' }],
    }),
  ],
  [
    'employee',
    'corrects its own note with a revision without a name',
    'deny',
    update('persons/pa/notes/n-emp3', {
      text: 'Ny.',
      revisions: [{ text: 'En god dag.', at: '2026-11-21T09:00:00.000Z', by: 'emp' }],
    }),
  ],
  [
    'employee',
    'corrects its own note with 49 earlier texts (the 50th correction)',
    'allow',
    (c) =>
      update('persons/pa/notes/n-49', {
        text: 'Ny.',
        revisions: arrayUnion({ ...revision('emp'), text: 'En god dag.' }),
      })(c),
  ],
  [
    'employee',
    'corrects its own note a 51st time',
    'deny',
    update('persons/pa/notes/n-50', { text: 'Ny.', revisions: arrayUnion(revision('emp')) }),
  ],
  [
    'employee',
    'writes a note whose author name has a zero-width space',
    'deny',
    (c) => set(`persons/pa/notes/${fresh('n')}`, note('pa', L1, 'emp', { authorName: 'Em\u200Bma' }))(c),
  ],
  [
    'superuser',
    'marks a note deleted with a name over 201 characters',
    'deny',
    update('persons/pa/notes/n-emp3', {
      deleted: { at: '2026-11-21T09:00:00.000Z', by: 'sup', byName: 'x'.repeat(202), reason: 'Fejl' },
    }),
  ],
  ['employee', 'erases its own note', 'deny', remove('persons/pa/notes/n-emp')],
  ['admin', 'erases a note', 'deny', remove('persons/pa/notes/n-sup')],

  // ── storage: avatars and logos ──
  ['anonymous', "uploads a person's avatar", 'deny', upload('persons/pa/avatar.png', 'image/png')],
  ['employee', "uploads a person's avatar", 'deny', upload('persons/pa/avatar.png', 'image/png')],
  [
    'superuser',
    'uploads the avatar of a person of its location',
    'allow',
    upload('persons/pa/avatar.png', 'image/png'),
  ],
  [
    'superuser',
    'uploads a text file as an avatar',
    'deny',
    upload('persons/pa/notes.txt', 'text/plain', Buffer.from('tekst')),
  ],
  [
    'superuser',
    'uploads an image over 2 MiB',
    'deny',
    upload('persons/pa/big.png', 'image/png', new Uint8Array(2 * 1024 * 1024 + 1)),
  ],
  ['superuser', 'uploads a location logo', 'deny', upload(`locations/${L1}/logo.png`, 'image/png')],
  ['admin', 'uploads a location logo', 'allow', upload(`locations/${L1}/logo.png`, 'image/png')],
  ['admin', 'uploads a file outside avatars and logos', 'deny', upload('exports/all.png', 'image/png')],
  ['employee', 'uploads its own avatar', 'deny', upload('users/emp/avatar.png', 'image/png')],
  [
    'employee',
    'reads the metadata of its own avatar',
    'allow',
    (c) => getMetadata(ref(c.storage, 'users/emp/avatar.png')),
  ],
  [
    'superuser',
    "reads the metadata of a colleague's avatar (a shared location)",
    'allow',
    (c) => getMetadata(ref(c.storage, 'users/emp/avatar.png')),
  ],
  [
    'employee',
    "reads the avatar of another location's staff member",
    'deny',
    (c) => getMetadata(ref(c.storage, 'users/emp2/avatar.png')),
  ],
  ['personA', "reads a staff member's avatar", 'deny', (c) => getMetadata(ref(c.storage, 'users/emp/avatar.png'))],
  ['employee', "uploads a colleague's avatar", 'deny', upload('users/sup/avatar.png', 'image/png')],
  ['superuser', "uploads an employee's avatar", 'allow', upload('users/emp/avatar.png', 'image/png')],
  ['superuser', "uploads an admin's avatar", 'deny', upload('users/adm/avatar.png', 'image/png')],
  [
    'employee',
    "reads the metadata of a person's avatar",
    'allow',
    (c) => getMetadata(ref(c.storage, 'persons/pa/avatar.png')),
  ],
  [
    'employee',
    "downloads another location's person's avatar",
    'deny',
    (c) => getBytes(ref(c.storage, 'persons/pb/avatar.png')),
  ],
  ['personA', 'downloads its own avatar', 'allow', (c) => getBytes(ref(c.storage, 'persons/pa/avatar.png'))],
  ['personA', "downloads another person's avatar", 'deny', (c) => getBytes(ref(c.storage, 'persons/pb/avatar.png'))],
  ['anonymous', 'downloads a location logo', 'deny', (c) => getBytes(ref(c.storage, `locations/${L1}/logo.png`))],
  ['employee', "downloads its location's logo", 'allow', (c) => getBytes(ref(c.storage, `locations/${L1}/logo.png`))],
]
