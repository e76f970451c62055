import { type ComponentProps, useEffect, useRef } from 'react'
import { NavLink } from 'react-router-dom'
import { prefetch } from '../prefetch.ts'

type Props = ComponentProps<typeof NavLink> & { to: string }

/** A link that fetches its route's code as soon as it becomes visible (REQ-CONST-7). */
export function PrefetchLink({ to, ...props }: Props) {
  const ref = useRef<HTMLAnchorElement>(null)
  useEffect(() => {
    const element = ref.current
    if (element === null) return
    if (typeof IntersectionObserver === 'undefined') {
      prefetch(to)
      return
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        prefetch(to)
        observer.disconnect()
      }
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [to])
  return <NavLink ref={ref} to={to} {...props} />
}
