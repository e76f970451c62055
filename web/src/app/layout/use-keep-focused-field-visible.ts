import { useEffect } from 'react'

const NOT_TYPED_IN = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'hidden',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
])

function isTypedIn(element: Element | null): element is HTMLElement {
  if (element instanceof HTMLInputElement) return !NOT_TYPED_IN.has(element.type)
  return element instanceof HTMLTextAreaElement || (element instanceof HTMLElement && element.isContentEditable)
}

/**
 * When the on-screen keyboard opens (the visual viewport shrinks) and covers the field being typed
 * in, scrolls that field back into view. Browsers that resize the layout for the keyboard
 * (`interactive-widget=resizes-content`) mostly do this themselves; iOS Safari and a field under
 * the sticky header need the help.
 */
export function useKeepFocusedFieldVisible(): void {
  useEffect(() => {
    const viewport = window.visualViewport
    if (!viewport) return
    const handleResize = () => {
      const field = document.activeElement
      if (!isTypedIn(field)) return
      const { top, bottom } = field.getBoundingClientRect()
      if (bottom > viewport.offsetTop + viewport.height || top < viewport.offsetTop) {
        field.scrollIntoView({ block: 'center' })
      }
    }
    viewport.addEventListener('resize', handleResize)
    return () => viewport.removeEventListener('resize', handleResize)
  }, [])
}
