import { da } from '@bosted/domain/messages/da'
import { useEffect } from 'react'
import { useBlocker } from 'react-router-dom'
import { Dialog } from './dialog.tsx'

type Props = {
  /** Whether leaving now loses work the user must be asked about (read when they try to leave). */
  shouldWarn: () => boolean
  /** Paths under this prefix are the same form (its steps): moving between them is no leaving. */
  within: string
  message?: string
}

/**
 * Asks before leaving a form (REQ-LEAVE-1): in-app navigation through the router's blocker, closing or
 * reloading the tab through the browser's own beforeunload prompt.
 */
export function LeaveGuard({ shouldWarn, within, message = da.leaveCreation }: Props) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname && !nextLocation.pathname.startsWith(within) && shouldWarn(),
  )

  useEffect(() => {
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!shouldWarn()) return
      event.preventDefault()
      event.returnValue = message
    }
    window.addEventListener('beforeunload', handleBeforeUnload)
    return () => window.removeEventListener('beforeunload', handleBeforeUnload)
  }, [shouldWarn, message])

  const isOpen = blocker.state === 'blocked'
  return (
    <Dialog title={da.form.leaveTitle} isOpen={isOpen} onClose={() => blocker.reset?.()}>
      <p>{message}</p>
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={() => blocker.reset?.()}>
          {da.form.stay}
        </button>
        <button type="button" className="button button--danger" onClick={() => blocker.proceed?.()}>
          {da.form.leave}
        </button>
      </div>
    </Dialog>
  )
}
