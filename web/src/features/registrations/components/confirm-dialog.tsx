import { da } from '@bosted/domain/messages/da'
import { Dialog } from '../../../components/ui/dialog.tsx'

type Props = { isOpen: boolean; message: string; confirmLabel: string; onConfirm: () => void; onClose: () => void }

/** Asks before an action that cannot be undone. */
export function ConfirmDialog({ isOpen, message, confirmLabel, onConfirm, onClose }: Props) {
  return (
    <Dialog title={confirmLabel} isOpen={isOpen} onClose={onClose}>
      <p>{message}</p>
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          {da.registration.cancel}
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}
