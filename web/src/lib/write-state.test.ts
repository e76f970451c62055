import '../test/setup.ts'
import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { CHANGE_CUE_MS } from './use-change-cue.ts'
import {
  forgetWriteStates,
  hasQueued,
  heardDocument,
  markQueued,
  markRefused,
  markSaved,
  useWriteState,
} from './write-state.ts'

const PATH = 'persons/p1/registrations/r1'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  forgetWriteStates()
  vi.useRealTimers()
})

test('a write kept on the device waits, is saved when the backend has it, and is said no more after the cue', () => {
  const { result } = renderHook(() => useWriteState(PATH))
  expect(result.current).toBeNull()
  act(() => markQueued(PATH))
  expect(result.current).toBe('queued')
  expect(hasQueued()).toBe(true)
  act(() => markSaved(PATH))
  expect(result.current).toBe('saved')
  expect(hasQueued()).toBe(false)
  act(() => vi.advanceTimersByTime(CHANGE_CUE_MS - 1))
  expect(result.current).toBe('saved')
  act(() => vi.advanceTimersByTime(1))
  expect(result.current).toBeNull()
})

test('a write acknowledged at once is never said to be saved here (the toast said it)', () => {
  const { result } = renderHook(() => useWriteState(PATH))
  act(() => markSaved(PATH))
  expect(result.current).toBeNull()
})

test("a listener's snapshot: pending offline is waiting, pending online is not yet, acknowledged is saved", () => {
  const { result } = renderHook(() => useWriteState(PATH))
  act(() => heardDocument(PATH, true, true))
  expect(result.current).toBeNull()
  act(() => heardDocument(PATH, true, false))
  expect(result.current).toBe('queued')
  // Back online and not yet acknowledged: still waiting.
  act(() => heardDocument(PATH, true, true))
  expect(result.current).toBe('queued')
  act(() => heardDocument(PATH, false, true))
  expect(result.current).toBe('saved')
})

test('a refused write and a sign-out leave nothing to say', () => {
  const { result } = renderHook(() => useWriteState(PATH))
  act(() => markQueued(PATH))
  act(() => markRefused(PATH))
  expect(result.current).toBeNull()
  act(() => markQueued(PATH))
  act(() => forgetWriteStates())
  expect(result.current).toBeNull()
  expect(hasQueued()).toBe(false)
})
