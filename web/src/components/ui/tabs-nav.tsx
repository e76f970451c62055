import { NavLink } from 'react-router-dom'

type Props = { label: string; items: readonly { to: string; label: string; end?: boolean }[] }

/** Links between a page's child pages; the current one is marked for assistive technology. */
export function TabsNav({ label, items }: Props) {
  return (
    <nav className="tabs" aria-label={label}>
      <ul>
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={item.end ?? false}>
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
