import fc from 'fast-check'
import { afterAll, beforeAll, test } from 'vitest'
import type { EmulatorLiteOptions } from '../src/index.ts'
import { queryProperty, writeProperty } from './differential.ts'
import { rulesProperty } from './rules-differential.ts'
import { startTargets, type Targets } from './targets.ts'

// The differential, bounded for `make test`: the same random documents, queries, aggregations,
// writes and listings through firebase-admin against emulator-lite and Google's emulator.
// PARITY_RUNS and PARITY_SEED (`make parity ARGS=--runs=N`) make it longer or replay a failure.
const RUNS = Number(process.env.PARITY_RUNS ?? 60)
const SEED = Number(process.env.PARITY_SEED ?? 20261125)

let targets: Targets

beforeAll(async () => {
  // After the signed-token change, emulator-lite reads the harness's unsigned tokens only when told.
  const options: Record<string, unknown> = { acceptUnsignedTokens: true }
  targets = await startTargets(options as EmulatorLiteOptions)
})

afterAll(async () => {
  await targets?.close()
})

test('queries and aggregations over random documents answer the same', async () => {
  await fc.assert(queryProperty(targets), { seed: SEED, numRuns: RUNS })
}, 600_000)

test('batched writes, transactions and listings leave the same documents', async () => {
  await fc.assert(writeProperty(targets), { seed: SEED, numRuns: RUNS })
}, 600_000)

test('random rule expressions decide the same for random callers and documents', async () => {
  await fc.assert(rulesProperty(targets), { seed: SEED, numRuns: RUNS })
}, 600_000)
