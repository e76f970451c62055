import type { ReactNode } from 'react'

type Props = {
  label: string
  previous: { label: string; onClick: () => void }
  next: { label: string; onClick: () => void }
  current: { label: string; onClick: () => void; disabled?: boolean }
  children?: ReactNode
}

/** Previous · current · next controls for a period (a day, a week), plus an optional field. */
export function StepNav({ label, previous, next, current, children }: Props) {
  return (
    <nav className="step-nav" aria-label={label}>
      <button type="button" className="button button--secondary" onClick={previous.onClick}>
        <span aria-hidden="true">‹ </span>
        {previous.label}
      </button>
      <button type="button" className="button button--secondary" onClick={current.onClick} disabled={current.disabled}>
        {current.label}
      </button>
      <button type="button" className="button button--secondary" onClick={next.onClick}>
        {next.label}
        <span aria-hidden="true"> ›</span>
      </button>
      {children}
    </nav>
  )
}
