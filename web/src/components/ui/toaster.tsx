import { TOAST_DURATION_MS, TOAST_POSITION, TOAST_TOUCH_RESUME_DEBOUNCE_MS } from '@bosted/domain/constants'
import { da } from '@bosted/domain/messages/da'
import { useEffect } from 'react'
import { Toaster as Sonner } from 'sonner'

const TOASTER = '[data-sonner-toaster]'

/**
 * Sonner pauses its timers while the pointer hovers the toasts and while the tab is hidden. A touch
 * ends with pointerup, which would resume at once; here a touch keeps the toasts paused until
 * 2000 ms after the last touch ended (REQ-CONST-5), by driving sonner's own hover state.
 */
export function installTouchPause(root: Document = document): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null
  let touched: Element | null = null
  const onTouchStart = (event: TouchEvent) => {
    const toaster = event.target instanceof Element ? event.target.closest(TOASTER) : null
    if (toaster === null) return
    if (timer !== null) clearTimeout(timer)
    timer = null
    touched = toaster
    toaster.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, relatedTarget: root.body }))
  }
  const onTouchEnd = () => {
    if (touched === null) return
    const toaster = touched
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = null
      touched = null
      toaster.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, relatedTarget: root.body }))
    }, TOAST_TOUCH_RESUME_DEBOUNCE_MS)
  }
  root.addEventListener('touchstart', onTouchStart, { capture: true, passive: true })
  root.addEventListener('touchend', onTouchEnd, { capture: true, passive: true })
  root.addEventListener('touchcancel', onTouchEnd, { capture: true, passive: true })
  return () => {
    if (timer !== null) clearTimeout(timer)
    root.removeEventListener('touchstart', onTouchStart, { capture: true })
    root.removeEventListener('touchend', onTouchEnd, { capture: true })
    root.removeEventListener('touchcancel', onTouchEnd, { capture: true })
  }
}

export function Toaster() {
  useEffect(() => installTouchPause(), [])
  return (
    <Sonner
      position={TOAST_POSITION}
      duration={TOAST_DURATION_MS}
      containerAriaLabel={da.shell.notifications}
      toastOptions={{ closeButtonAriaLabel: da.shell.closeToast }}
      richColors
      closeButton
    />
  )
}
