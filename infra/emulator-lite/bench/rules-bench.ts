// Rules engine micro-benchmark: evaluations per second for a realistic rule with one get(), a
// list decision, and the parse time of the rules file. Prints figures; asserts nothing.
// Run: npx tsx infra/emulator-lite/bench/rules-bench.ts
import type { Fields } from '../src/firestore/values.ts'
import { checkFirestore, checkFirestoreList, type DocLookup, parseRules } from '../src/rules/index.ts'

const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    function signedIn() { return request.auth != null; }
    function me() { return get(/databases/$(database)/documents/users/$(request.auth.uid)).data; }
    function staffOf(loc) { return signedIn() && loc in me().locations; }
    match /persons/{personId}/notes/{noteId} {
      allow list: if staffOf(resource.data.locationId);
      allow create: if staffOf(request.resource.data.locationId)
        && request.resource.data.createdBy == request.auth.uid
        && request.resource.data.keys().hasOnly(['locationId', 'createdBy', 'text', 'createdAt'])
        && request.resource.data.text is string && request.resource.data.text.size() <= 5000
        && request.resource.data.createdAt == request.time;
    }
  }
}
`

const s = (stringValue: string) => ({ stringValue })
const users: Record<string, Fields> = {
  'users/staff1': {
    locations: { arrayValue: { values: [s('L1'), s('L2'), s('L3')] } },
    userRole: s('employee'),
    settings: { mapValue: { fields: { disabled: { booleanValue: false } } } },
  },
}
const lookup: DocLookup = { get: (path) => users[path] ?? null, getAfter: (path) => users[path] ?? null }
const time = new Date('2026-03-01T10:00:00Z')
const auth = { uid: 'staff1', token: { email: 'staff1@example.com', firebase: { sign_in_provider: 'password' } } }
const note: Fields = {
  locationId: s('L2'),
  createdBy: s('staff1'),
  text: s('Had a good day and ate well.'),
  createdAt: { timestampValue: '2026-03-01T10:00:00.000000000Z' },
}

function measure(label: string, run: () => boolean, iterations: number): void {
  for (let i = 0; i < 1000; i++) if (!run()) throw new Error(`${label} was denied`)
  const samples: number[] = []
  const started = performance.now()
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now()
    run()
    samples.push(performance.now() - t0)
  }
  const elapsed = performance.now() - started
  samples.sort((a, b) => a - b)
  const p50 = samples[Math.floor(samples.length / 2)] as number
  const p99 = samples[Math.floor(samples.length * 0.99)] as number
  console.log(
    `${label}: ${Math.round((iterations / elapsed) * 1000).toLocaleString('en')} evaluations/s, p50 ${(p50 * 1000).toFixed(1)} µs, p99 ${(p99 * 1000).toFixed(1)} µs`,
  )
}

const parseStart = performance.now()
const ruleset = parseRules(RULES, 'bench.rules')
console.log(`parse: ${(performance.now() - parseStart).toFixed(2)} ms (first parse, cold)`)

measure(
  'create note (1 get(), 7 conditions)',
  () =>
    checkFirestore(ruleset, {
      database: '(default)',
      path: 'persons/p1/notes/n1',
      method: 'create',
      auth,
      time,
      resource: null,
      requestResource: note,
      lookup,
    }).allowed,
  50_000,
)

measure(
  'list notes where locationId in [L1, L2, L3] (3 ways, 1 get())',
  () =>
    checkFirestoreList(ruleset, {
      database: '(default)',
      parent: 'persons/p1',
      collectionId: 'notes',
      allDescendants: false,
      structuredQuery: {
        from: [{ collectionId: 'notes' }],
        where: {
          fieldFilter: {
            field: { fieldPath: 'locationId' },
            op: 'IN',
            value: { arrayValue: { values: [s('L1'), s('L2'), s('L3')] } },
          },
        },
        limit: 50,
      },
      auth,
      time,
      lookup,
    }).allowed,
  50_000,
)
