import '../test/setup.ts'
import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { CHANGE_CUE_MS, useChangeCue } from './use-change-cue.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

test('what is shown first is not marked; a change is, for three seconds', () => {
  expect(CHANGE_CUE_MS).toBe(3000)
  const { result, rerender } = renderHook(({ signature }) => useChangeCue(signature), {
    initialProps: { signature: 'r1' },
  })
  expect(result.current).toBe(false)
  rerender({ signature: 'r1,r2' })
  expect(result.current).toBe(true)
  act(() => vi.advanceTimersByTime(2999))
  expect(result.current).toBe(true)
  act(() => vi.advanceTimersByTime(1))
  expect(result.current).toBe(false)
})

test('a second change while marked keeps the mark for three seconds from the second', () => {
  const { result, rerender } = renderHook(({ signature }) => useChangeCue(signature), {
    initialProps: { signature: 'a' },
  })
  rerender({ signature: 'b' })
  act(() => vi.advanceTimersByTime(2000))
  rerender({ signature: 'c' })
  act(() => vi.advanceTimersByTime(2000))
  expect(result.current).toBe(true)
  act(() => vi.advanceTimersByTime(1000))
  expect(result.current).toBe(false)
})

test('a newcomer (it appeared after the list was shown) is marked from the start', () => {
  const { result } = renderHook(() => useChangeCue('n1', true))
  expect(result.current).toBe(true)
  act(() => vi.advanceTimersByTime(CHANGE_CUE_MS))
  expect(result.current).toBe(false)
})
