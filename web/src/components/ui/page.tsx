import { da } from '@bosted/domain/messages/da'
import { type ReactNode, useEffect } from 'react'

type Props = { title: string; level?: 1 | 2 | 3; children?: ReactNode }

/** A page (or a child page's section) with its Danish heading; a top-level page names the tab. */
export function Page({ title, level = 1, children }: Props) {
  useEffect(() => {
    if (level === 1) document.title = `${title} · ${da.shell.appName}`
  }, [title, level])
  const Heading = `h${level}` as const
  return (
    <section className={`page page--level-${level}`}>
      <Heading>{title}</Heading>
      {children}
    </section>
  )
}
