import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { compareValues, type Value } from '../src/firestore/values.ts'
import { Difference, queryProperty } from './differential.ts'
import { startTargets, type Targets } from './targets.ts'

// The harness's own test: emulator-lite is started with a planted difference in its query engine
// (-0 sorts after 0, where Firestore sorts them as equal, then by name); the differential must find
// it, and shrink it to a small case that shows it.
const isNegativeZero = (value: Value) => 'doubleValue' in value && Object.is(Number(value.doubleValue), -0)
const plantedCompare = (a: Value, b: Value) => {
  const order = compareValues(a, b)
  if (order !== 0) return order
  return isNegativeZero(a) === isNegativeZero(b) ? 0 : isNegativeZero(a) ? 1 : -1
}

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

test('the differential catches -0 planted to sort after 0, and shrinks it to a small case', async () => {
  const details = await fc.check(queryProperty(targets), { seed: SEED, numRuns: RUNS })
  expect(details.failed).toBe(true)
  const error = details.errorInstance as Error
  expect(error).toBeInstanceOf(Difference)
  expect(error.message).toMatch(/query differs/)
  const [docs, shapes] = details.counterexample as [unknown[], unknown[]]
  // Shrunk: a couple of documents, one of them holding -0, and one query that orders them.
  expect(docs.length).toBeGreaterThanOrEqual(2)
  expect(docs.length).toBeLessThanOrEqual(3)
  expect(shapes.length).toBe(1)
  expect(error.message).toMatch(/"dbl":"?-0"?/)
}, 600_000)
