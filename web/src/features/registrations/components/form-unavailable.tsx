import { da } from '@bosted/domain/messages/da'
import { Dialog } from '../../../components/ui/dialog.tsx'
import { useOnline } from '../../../lib/use-online.ts'

type Props = { title: string; isOpen: boolean; onRetry: () => void; onClose: () => void }

/**
 * In place of the register / correct form whose code could not be fetched: offline, that it comes
 * when the connection is back (the owner fetches it again then); online, a button to try again.
 */
export function FormUnavailable({ title, isOpen, onRetry, onClose }: Props) {
  const isOnline = useOnline()
  return (
    <Dialog title={title} isOpen={isOpen} onClose={onClose}>
      <p role="status">{isOnline ? da.registration.formFailed : da.shell.offlineNotRead}</p>
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          {da.registration.cancel}
        </button>
        {isOnline && (
          <button type="button" className="button button--action" onClick={onRetry}>
            {da.shell.retry}
          </button>
        )}
      </div>
    </Dialog>
  )
}
