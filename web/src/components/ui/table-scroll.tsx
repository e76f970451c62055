import type { ReactNode } from 'react'

type Props = { label: string; children: ReactNode }

/**
 * A wide table's own scroll box: on a phone or tablet the table scrolls sideways inside it (the
 * page does not) and the first column stays in view. The box is a named, focusable region so a
 * keyboard user can scroll it too.
 */
export function TableScroll({ label, children }: Props) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1).
    <section className="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  )
}
