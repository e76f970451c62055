import '../../test/setup.ts'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { toast } from 'sonner'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { Toaster } from './toaster.tsx'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  // sonner keeps its toasts in a module-wide store and replays active ones to a new Toaster.
  act(() => {
    toast.dismiss()
    vi.runOnlyPendingTimers()
  })
  setDocumentHidden(false)
  vi.useRealTimers()
})

const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms)
  })

/** Renders the app's Toaster and shows one toast (sonner adds it on the next tick). */
function showToast(message = 'Borgeren blev opdateret korrekt') {
  render(<Toaster />)
  act(() => {
    toast.success(message)
  })
  advance(0)
  return message
}

const toaster = () => document.querySelector<HTMLElement>('[data-sonner-toaster]')!
const toastOf = (message: string) => screen.getByText(message).closest<HTMLElement>('[data-sonner-toast]')!
/** sonner marks a toast removed when its time is up, then drops it after a 200 ms exit animation. */
const isLeaving = (message: string) => toastOf(message).dataset.removed === 'true'

function setDocumentHidden(hidden: boolean) {
  if (hidden) {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true })
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' })
  } else {
    // Back to happy-dom's own getters on the prototype.
    Reflect.deleteProperty(document, 'hidden')
    Reflect.deleteProperty(document, 'visibilityState')
  }
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'))
  })
}

const touch = (type: string, target: Element) =>
  act(() => {
    target.dispatchEvent(new Event(type, { bubbles: true }))
  })

test('a toast stays for 6000 ms, then leaves', () => {
  const message = showToast()
  advance(5999)
  expect(isLeaving(message)).toBe(false)
  advance(1)
  expect(isLeaving(message)).toBe(true)
  advance(200)
  expect(screen.queryByText(message)).toBeNull()
})

test('the toasts are shown at the top center of the screen', () => {
  const message = showToast()
  expect(toaster()).toHaveAttribute('data-y-position', 'top')
  expect(toaster()).toHaveAttribute('data-x-position', 'center')
  expect(toastOf(message)).toHaveAttribute('data-y-position', 'top')
  expect(toastOf(message)).toHaveAttribute('data-x-position', 'center')
})

test('the toasts sit in a region named Notifikationer, each with a Luk besked button', () => {
  const message = showToast()
  expect(screen.getByRole('region', { name: /^Notifikationer/ })).toContainElement(toastOf(message))
  expect(screen.getByRole('button', { name: 'Luk besked' })).toBeInTheDocument()
})

test('a hovered toast stays; when the pointer leaves, the rest of its 6000 ms runs', () => {
  const message = showToast()
  advance(4000)
  fireEvent.mouseEnter(toaster())
  advance(60_000)
  expect(isLeaving(message)).toBe(false)
  fireEvent.mouseLeave(toaster())
  advance(1999)
  expect(isLeaving(message)).toBe(false)
  advance(1)
  expect(isLeaving(message)).toBe(true)
})

test('a toast stays while the tab is hidden; back on the tab, the rest of its 6000 ms runs', () => {
  const message = showToast()
  advance(1000)
  setDocumentHidden(true)
  advance(60_000)
  expect(isLeaving(message)).toBe(false)
  setDocumentHidden(false)
  advance(4999)
  expect(isLeaving(message)).toBe(false)
  advance(1)
  expect(isLeaving(message)).toBe(true)
})

test('a touch on the toasts pauses them until 2000 ms after the touch ends', () => {
  const message = showToast()
  advance(5000)
  touch('touchstart', toastOf(message))
  advance(60_000)
  touch('touchend', toastOf(message))
  advance(1999)
  expect(isLeaving(message)).toBe(false)
  // The pause ends 2000 ms after the touch; then the 1000 ms the toast had left run.
  advance(1)
  advance(999)
  expect(isLeaving(message)).toBe(false)
  advance(1)
  expect(isLeaving(message)).toBe(true)
})

test('a new touch within the 2000 ms keeps the toasts paused (debounced)', () => {
  const message = showToast()
  advance(5000)
  touch('touchstart', toastOf(message))
  touch('touchend', toastOf(message))
  advance(1500)
  touch('touchstart', toastOf(message))
  touch('touchend', toastOf(message))
  // Past the first touch's 2000 ms (React renders between the steps), still paused.
  advance(500)
  advance(1499)
  expect(isLeaving(message)).toBe(false)
  advance(1)
  advance(999)
  expect(isLeaving(message)).toBe(false)
  advance(1)
  expect(isLeaving(message)).toBe(true)
})

test('touches elsewhere on the page leave the toasts alone', () => {
  const message = showToast()
  touch('touchstart', document.body)
  advance(5999)
  touch('touchend', document.body)
  expect(isLeaving(message)).toBe(false)
  advance(1)
  expect(isLeaving(message)).toBe(true)
})
