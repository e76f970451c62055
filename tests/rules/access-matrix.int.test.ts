import { afterAll, beforeAll, expect, test } from 'vitest'
import { CASES } from './access-cases.ts'
import { createFixture, type Fixture } from './fixture.ts'
import { type RulesTarget, startRulesTarget } from './rules-target.ts'

// The access model of docs/decisions/0004-access-model.md (access-cases.ts) against emulator-lite's
// rules engine; access-matrix.official.parity.test.ts runs the same table against production's.
let target: RulesTarget
let fixture: Fixture

beforeAll(async () => {
  target = await startRulesTarget()
  fixture = await createFixture(target)
})

afterAll(async () => {
  await fixture?.close()
  await target?.close()
})

test('the matrix covers at least 100 cases over every persona', () => {
  expect(CASES.length).toBeGreaterThanOrEqual(100)
  const personas = new Set(CASES.map(([who]) => who))
  expect(personas.size).toBe(9)
  expect(CASES.filter(([, , expected]) => expected === 'allow').length).toBeGreaterThan(40)
})

// In order: later cases see what earlier ones wrote, as a real session would.
test.each(CASES)('%s %s: %s', async (who, _what, expected, run) => {
  const outcome = await run(fixture.clients[who]).then(
    () => 'allow',
    (error: { code?: string }) => error.code ?? String(error),
  )
  if (expected === 'allow') expect(outcome).toBe('allow')
  else expect(['permission-denied', 'storage/unauthorized']).toContain(outcome)
})
