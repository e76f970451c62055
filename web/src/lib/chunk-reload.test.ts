import { expect, test, vi } from 'vitest'
import { isChunkLoadError, reloadOnceAfterChunkError } from './chunk-reload.ts'

function deps(now: { value: number }, online = { value: true }) {
  const store = new Map<string, string>()
  return {
    isOnline: () => online.value,
    storage: {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, v: string) => store.set(key, v),
    },
    now: () => now.value,
    reload: vi.fn(),
  }
}

test('recognises failed dynamic imports in each browser wording', () => {
  expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/daily-x.js'))).toBe(true)
  expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
  expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true)
  expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false)
  expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false)
})

test('reloads once after a failed chunk and not again within 10000 ms', () => {
  const now = { value: 1_000_000 }
  const d = deps(now)
  expect(reloadOnceAfterChunkError(d)).toBe(true)
  expect(d.reload).toHaveBeenCalledTimes(1)
  now.value += 9_999
  expect(reloadOnceAfterChunkError(d)).toBe(false)
  expect(d.reload).toHaveBeenCalledTimes(1)
  now.value += 1
  expect(reloadOnceAfterChunkError(d)).toBe(true)
  expect(d.reload).toHaveBeenCalledTimes(2)
})

test("never reloads while the browser is offline (the page would become the browser's offline page)", () => {
  const online = { value: false }
  const d = deps({ value: 1_000_000 }, online)
  expect(reloadOnceAfterChunkError(d)).toBe(false)
  expect(d.reload).not.toHaveBeenCalled()
  online.value = true
  expect(reloadOnceAfterChunkError(d)).toBe(true)
})
