import { expect, test } from 'vitest'
import { watchEventLoop } from './event-loop-watch.ts'

const busy = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // blocks the event loop, as a long synchronous statement would
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('a blocked event loop is logged with how long nothing ran; a free one is not', async () => {
  const lines: string[] = []
  const stop = watchEventLoop('emulator-lite', 1_000, (line) => lines.push(line))
  try {
    await sleep(500)
    expect(lines).toEqual([])
    busy(1_300)
    await sleep(400)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^emulator-lite: nothing ran for \d+ ms \(the event loop was blocked or starved\)$/)
    expect(Number(/for (\d+) ms/.exec(lines[0] ?? '')?.[1])).toBeGreaterThanOrEqual(1_000)
  } finally {
    stop()
  }
})
