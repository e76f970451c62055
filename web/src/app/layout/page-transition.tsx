import { type ReactElement, useEffect, useRef, useState } from 'react'
import { useLocation, useOutlet } from 'react-router-dom'

/** Each half of the out-in transition. */
export const TRANSITION_MS = 150

const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches

type Phase = 'idle' | 'leave' | 'enter'

/**
 * The 'fade-slide' page transition, out-in (REQ-CONST-7): the old page fades and slides out, then the
 * new one in. With prefers-reduced-motion the page is swapped at once.
 */
export function PageTransition() {
  const outlet = useOutlet()
  const { pathname } = useLocation()
  const [state, setState] = useState<{ key: string; frozen: ReactElement | null; phase: Phase }>({
    key: pathname,
    frozen: null,
    phase: 'idle',
  })
  const previousOutlet = useRef(outlet)

  if (pathname !== state.key) {
    if (prefersReducedMotion()) setState({ key: pathname, frozen: null, phase: 'idle' })
    else if (state.phase === 'leave') setState({ ...state, key: pathname })
    else setState({ key: pathname, frozen: previousOutlet.current, phase: 'leave' })
  }

  useEffect(() => {
    if (state.phase !== 'leave') previousOutlet.current = outlet
  })

  useEffect(() => {
    if (state.phase === 'idle') return
    const timer = setTimeout(() => {
      setState((current) => ({ ...current, frozen: null, phase: current.phase === 'leave' ? 'enter' : 'idle' }))
    }, TRANSITION_MS)
    return () => clearTimeout(timer)
  }, [state.phase])

  return (
    <div className={`fade-slide fade-slide--${state.phase}`} data-testid="page-transition">
      {state.phase === 'leave' ? state.frozen : outlet}
    </div>
  )
}
