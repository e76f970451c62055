import '../../test/setup.ts'
import { render, screen } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { useKeepFocusedFieldVisible } from './use-keep-focused-field-visible.ts'

function Form() {
  useKeepFocusedFieldVisible()
  return (
    <form>
      <label>
        Notat
        <textarea />
      </label>
      <label>
        Vigtig
        <input type="checkbox" />
      </label>
    </form>
  )
}

/** A stand-in for window.visualViewport whose height the test shrinks as a keyboard would. */
function fakeViewport(height: number) {
  const viewport = Object.assign(new EventTarget(), { height, offsetTop: 0 })
  vi.stubGlobal('visualViewport', viewport)
  return viewport
}

function placeAt(element: HTMLElement, top: number) {
  element.getBoundingClientRect = () => ({ top, bottom: top + 40 }) as DOMRect
  element.scrollIntoView = vi.fn()
  return element.scrollIntoView
}

afterEach(() => {
  vi.unstubAllGlobals()
})

test('a field the on-screen keyboard covers is scrolled back into view', () => {
  const viewport = fakeViewport(844)
  render(<Form />)
  const field = screen.getByRole('textbox', { name: 'Notat' })
  const scrollIntoView = placeAt(field, 600)
  field.focus()
  viewport.height = 500
  viewport.dispatchEvent(new Event('resize'))
  expect(scrollIntoView).toHaveBeenCalledWith({ block: 'center' })
})

test('a field that stays visible above the keyboard is left where it is', () => {
  const viewport = fakeViewport(844)
  render(<Form />)
  const field = screen.getByRole('textbox', { name: 'Notat' })
  const scrollIntoView = placeAt(field, 200)
  field.focus()
  viewport.height = 500
  viewport.dispatchEvent(new Event('resize'))
  expect(scrollIntoView).not.toHaveBeenCalled()
})

test('a focused checkbox (no keyboard to type with) is left where it is', () => {
  const viewport = fakeViewport(844)
  render(<Form />)
  const checkbox = screen.getByRole('checkbox', { name: 'Vigtig' })
  const scrollIntoView = placeAt(checkbox, 600)
  checkbox.focus()
  viewport.height = 500
  viewport.dispatchEvent(new Event('resize'))
  expect(scrollIntoView).not.toHaveBeenCalled()
})
