import { renderHook } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { errorLabel, reportError, useReportError } from './report-error.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

test('a failure is named by its code, else its name, never by its message', () => {
  expect(errorLabel(Object.assign(new Error('Anna Hansen not found'), { code: 'storage/unauthorized' }))).toBe(
    'storage/unauthorized',
  )
  expect(errorLabel(new TypeError('Anna Hansen'))).toBe('TypeError')
  expect(errorLabel('Anna Hansen')).toBe('string')
  expect(errorLabel(null)).toBe('object')
})

test('reportError warns with the context and the failure name', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  reportError('a location could not be updated')(new RangeError('secret'))
  expect(warn).toHaveBeenCalledExactlyOnceWith('a location could not be updated', 'RangeError')
})

test('useReportError warns once per failure and not while there is none', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const first = new Error('x')
  const { rerender } = renderHook(
    ({ error }: { error: Error | null }) => useReportError('the log could not be loaded', error),
    {
      initialProps: { error: null as Error | null },
    },
  )
  expect(warn).not.toHaveBeenCalled()
  rerender({ error: first })
  rerender({ error: first })
  expect(warn).toHaveBeenCalledExactlyOnceWith('the log could not be loaded', 'Error')
  rerender({ error: null })
  rerender({ error: new TypeError('y') })
  expect(warn).toHaveBeenCalledTimes(2)
})
