import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { ACK_WAIT_MS, savedOrQueued } from './kept-writes.ts'
import type { Written } from './live.ts'
import { forgetWriteStates, hasQueued } from './write-state.ts'

const online = vi.spyOn(navigator, 'onLine', 'get')

beforeEach(() => {
  vi.useFakeTimers()
  online.mockReturnValue(true)
})
afterEach(() => {
  forgetWriteStates()
  vi.useRealTimers()
})

/** A write whose acknowledgement the test gives (or refuses). */
function written(): Written & { ack: () => void; refuse: (error: Error) => void } {
  let ack = () => {}
  let refuse: (error: Error) => void = () => {}
  const acked = new Promise<void>((resolve, reject) => {
    ack = resolve
    refuse = reject
  })
  return { path: 'persons/p1/notes/n1', id: 'n1', acked, ack: () => ack(), refuse: (error) => refuse(error) }
}

test('acknowledged within the wait: saved, and nothing waits', async () => {
  const write = written()
  const outcome = savedOrQueued(write)
  write.ack()
  expect(await outcome).toBe('saved')
  expect(hasQueued()).toBe(false)
})

test('refused within the wait: the save fails as before', async () => {
  const write = written()
  const outcome = savedOrQueued(write)
  write.refuse(Object.assign(new Error('denied'), { code: 'permission-denied' }))
  await expect(outcome).rejects.toMatchObject({ code: 'permission-denied' })
})

test('no acknowledgement within ACK_WAIT_MS (the wifi is there but the backend is not): kept, waiting', async () => {
  expect(ACK_WAIT_MS).toBe(3000)
  const write = written()
  const outcome = savedOrQueued(write)
  await vi.advanceTimersByTimeAsync(ACK_WAIT_MS)
  expect(await outcome).toBe('queued')
  expect(hasQueued()).toBe(true)
  write.ack()
  await vi.advanceTimersByTimeAsync(0)
  expect(hasQueued()).toBe(false)
})

test('offline: kept at once, without waiting; a later refusal takes the waiting state away', async () => {
  online.mockReturnValue(false)
  const write = written()
  expect(await savedOrQueued(write)).toBe('queued')
  expect(hasQueued()).toBe(true)
  write.refuse(new Error('denied'))
  await vi.advanceTimersByTimeAsync(0)
  expect(hasQueued()).toBe(false)
})
