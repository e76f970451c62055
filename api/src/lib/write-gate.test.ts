import { expect, test } from 'vitest'
import { WriteGate } from './write-gate.ts'

const exhausted = () => Object.assign(new Error('disk full'), { code: 8 })

test('closes only on a refusal for lack of space, and asks again once its answer is older than maxAge', async () => {
  let now = 0
  let outcome: () => Promise<void> = () => Promise.reject(exhausted())
  let probes = 0
  const gate = new WriteGate(
    () => {
      probes += 1
      return outcome()
    },
    5_000,
    () => now,
  )
  expect(await gate.isFull()).toBe(true)
  outcome = () => Promise.resolve()
  now = 4_999
  expect(await gate.isFull()).toBe(true)
  expect(probes).toBe(1)
  now = 5_000
  expect(await gate.isFull()).toBe(false)
  outcome = () => Promise.reject(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))
  now = 10_000
  expect(await gate.isFull()).toBe(false)
  expect(probes).toBe(3)
})

test('concurrent requests share one probe', async () => {
  let probes = 0
  const gate = new WriteGate(async () => {
    probes += 1
  })
  expect(await Promise.all([gate.isFull(), gate.isFull(), gate.isFull()])).toEqual([false, false, false])
  expect(probes).toBe(1)
})
