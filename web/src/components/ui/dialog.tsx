import { type ReactNode, useEffect, useId, useRef } from 'react'

type Props = { title: string; isOpen: boolean; onClose: () => void; children: ReactNode }

/**
 * A modal dialog on the native <dialog>: the browser keeps focus inside, returns it on close and
 * closes on Escape (then onClose tells the owner). Styled by `.dialog`, it never outgrows the
 * screen: its content scrolls inside, and on a phone it is a bottom sheet.
 */
export function Dialog({ title, isOpen, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    if (dialog === null) return
    if (isOpen && !dialog.open) dialog.showModal()
    if (!isOpen && dialog.open) dialog.close()
  }, [isOpen])
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      {children}
    </dialog>
  )
}
