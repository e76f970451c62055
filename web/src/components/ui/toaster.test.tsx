import '../../test/setup.ts'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { installTouchPause } from './toaster.tsx'

let uninstall: () => void = () => {}
let toaster: HTMLElement

beforeEach(() => {
  vi.useFakeTimers()
  toaster = document.createElement('ol')
  toaster.setAttribute('data-sonner-toaster', '')
  toaster.append(document.createElement('li'))
  document.body.append(toaster)
  uninstall = installTouchPause(document)
})
afterEach(() => {
  uninstall()
  toaster.remove()
  vi.useRealTimers()
})

const touch = (type: string, target: Element) => target.dispatchEvent(new Event(type, { bubbles: true }))

test('a touch on the toasts pauses them until 2000 ms after the touch ends', () => {
  const events: string[] = []
  toaster.addEventListener('mouseover', () => events.push('pause'))
  toaster.addEventListener('mouseout', () => events.push('resume'))
  touch('touchstart', toaster.firstElementChild!)
  expect(events).toEqual(['pause'])
  touch('touchend', toaster.firstElementChild!)
  vi.advanceTimersByTime(1999)
  expect(events).toEqual(['pause'])
  vi.advanceTimersByTime(1)
  expect(events).toEqual(['pause', 'resume'])
})

test('a new touch within the 2000 ms keeps the toasts paused (debounced)', () => {
  const events: string[] = []
  toaster.addEventListener('mouseout', () => events.push('resume'))
  touch('touchstart', toaster)
  touch('touchend', toaster)
  vi.advanceTimersByTime(1500)
  touch('touchstart', toaster)
  touch('touchend', toaster)
  vi.advanceTimersByTime(1999)
  expect(events).toEqual([])
  vi.advanceTimersByTime(1)
  expect(events).toEqual(['resume'])
})

test('touches elsewhere on the page leave the toasts alone', () => {
  const events: string[] = []
  toaster.addEventListener('mouseover', () => events.push('pause'))
  touch('touchstart', document.body)
  touch('touchend', document.body)
  vi.advanceTimersByTime(5000)
  expect(events).toEqual([])
})
