import { afterAll, beforeAll, expect, test } from 'vitest'
import { CASES } from './access-cases.ts'
import { createFixture, type Fixture } from './fixture.ts'
import { type RulesTarget, startRulesTarget } from './rules-target.ts'

// The same table as access-matrix.int.test.ts, with Firestore served by Google's Cloud Firestore
// emulator enforcing the repo's firestore.rules (production's rules engine); Auth and Storage are
// emulator-lite's (Storage rules have no official runner here). A case that passes on emulator-lite
// and fails here is a difference between the two rules engines.
let target: RulesTarget
let fixture: Fixture

beforeAll(async () => {
  target = await startRulesTarget('official-firestore')
  fixture = await createFixture(target)
})

afterAll(async () => {
  await fixture?.close()
  await target?.close()
})

test('Firestore is the official emulator, Storage and Auth are emulator-lite', async () => {
  const official = await fetch(`http://${target.firestoreHost}/health`)
  const lite = await fetch(`http://${target.storageHost}/health`)
  expect(official.status).not.toBe(200)
  expect(lite.status).toBe(200)
  expect(target.firestoreHost).not.toBe(target.mirrorFirestoreAdminHosts[0])
})

test.each(CASES)('%s %s: %s', async (who, _what, expected, run) => {
  const outcome = await run(fixture.clients[who]).then(
    () => 'allow',
    (error: { code?: string }) => error.code ?? String(error),
  )
  if (expected === 'allow') expect(outcome).toBe('allow')
  else expect(['permission-denied', 'storage/unauthorized']).toContain(outcome)
})
