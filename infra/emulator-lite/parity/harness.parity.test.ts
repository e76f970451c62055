import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { compareValues, type Value } from '../src/firestore/values.ts'
import { Difference, queryProperty } from './differential.ts'
import { startTargets, type Targets } from './targets.ts'

// The harness's own test: emulator-lite is started with a planted difference in its query engine:
// strings ordered by UTF-16 code unit, JavaScript's own order, where Firestore orders UTF-8 bytes
// (so U+E000–U+FFFF sort after emoji instead of before). The differential must find it and shrink it
// to a small case. (-0 after 0 cannot be planted: both emulators store -0 as 0.)
const plantedCompare = (a: Value, b: Value) =>
  typeof a.stringValue === 'string' && typeof b.stringValue === 'string'
    ? a.stringValue < b.stringValue
      ? -1
      : a.stringValue > b.stringValue
        ? 1
        : 0
    : compareValues(a, b)

const SEED = 7
const RUNS = 150

let targets: Targets

beforeAll(async () => {
  targets = await startTargets({ testOnlyQueryOptions: { compareValues: plantedCompare } })
})

afterAll(async () => {
  await targets?.close()
})

test('without the planted difference, the seed finds none', async () => {
  const clean = await startTargets()
  try {
    const details = await fc.check(queryProperty(clean), { seed: SEED, numRuns: RUNS })
    expect(details.failed ? String(details.errorInstance) : 'no difference').toBe('no difference')
  } finally {
    await clean.close()
  }
}, 600_000)

test('the differential catches strings planted to sort by UTF-16 unit, and shrinks it to a small case', async () => {
  const details = await fc.check(queryProperty(targets), { seed: SEED, numRuns: RUNS })
  expect(details.failed).toBe(true)
  const error = details.errorInstance as Error
  expect(error).toBeInstanceOf(Difference)
  expect(error.message).toMatch(/query differs/)
  const [docs, shapes] = details.counterexample as [unknown[], unknown[]]
  // Shrunk: two documents whose strings sort differently in UTF-8 and UTF-16, and a query or two.
  expect(docs.length).toBe(2)
  expect(shapes.length).toBeLessThanOrEqual(2)
  expect(error.message).toMatch(/\\u(e000|ffff)|[\ue000\uffff]/i)
}, 600_000)
