import { da } from '@bosted/domain/messages/da'
import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { paths } from '../../lib/paths.ts'
import { UserAvatar } from './user-avatar.tsx'

type Props = {
  name: string
  /** The signed-in user's picture, shown instead of their initial. */
  avatarUrl?: string | null
  isAdmin: boolean
  onLogout: () => Promise<void>
  onLogoutEverywhere: () => void
  children: ReactNode
}

const FOCUSABLE = 'a[href], button:not([disabled])'

/**
 * The narrow header's one menu button (a disclosure, not an ARIA menu: it holds a navigation
 * landmark and the user's entries). Opening moves focus to the first entry; Escape closes and
 * returns focus to the button; a click outside, focus leaving it, or a new page closes it.
 */
export function CompactMenu({ name, avatarUrl = null, isAdmin, onLogout, onLogoutEverywhere, children }: Props) {
  const [isOpen, setIsOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)
  const panelId = useId()
  const { pathname } = useLocation()

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page (any pathname change) closes the panel.
  useEffect(() => setIsOpen(false), [pathname])

  useEffect(() => {
    if (!isOpen) return
    panelRef.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus()
    const isInside = (target: EventTarget | null) => rootRef.current?.contains(target as Node) ?? false
    const onPointerDown = (event: PointerEvent) => {
      if (!isInside(event.target)) setIsOpen(false)
    }
    // Tabbing past the last entry (or back before the button) leaves the menu: fold it away.
    const onFocusIn = (event: FocusEvent) => {
      if (!isInside(event.target)) setIsOpen(false)
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      event.preventDefault()
      setIsOpen(false)
      buttonRef.current?.focus()
    }
    // A link to the page already shown changes no pathname, yet the choice is made.
    const onClick = (event: MouseEvent) => {
      if (panelRef.current?.contains(event.target as Node) && (event.target as Element).closest('a') !== null) {
        setIsOpen(false)
      }
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('focusin', onFocusIn)
    document.addEventListener('keydown', onKeyDown)
    document.addEventListener('click', onClick)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('focusin', onFocusIn)
      document.removeEventListener('keydown', onKeyDown)
      document.removeEventListener('click', onClick)
    }
  }, [isOpen])

  const handleLogout = async () => {
    setIsOpen(false)
    buttonRef.current?.focus()
    await onLogout()
  }
  const handleLogoutEverywhere = () => {
    setIsOpen(false)
    buttonRef.current?.focus()
    onLogoutEverywhere()
  }

  return (
    <div className="compact-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="compact-menu__button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => setIsOpen((open) => !open)}
      >
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
          <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span className="visually-hidden">{da.shell.menu}</span>
        <UserAvatar name={name} url={avatarUrl} />
        <span className="compact-menu__name">{name}</span>
      </button>
      <div ref={panelRef} id={panelId} className="compact-menu__panel" hidden={!isOpen}>
        {children}
        <p className="compact-menu__user" aria-hidden="true">
          {name}
        </p>
        <ul className="compact-menu__entries" aria-label={da.shell.userMenu(name)}>
          <li>
            <Link to={paths.settings.persons}>{da.nav.settings}</Link>
          </li>
          {isAdmin && (
            <li>
              <Link to={paths.admin.index}>{da.nav.admin}</Link>
            </li>
          )}
          <li>
            <Link to={paths.password}>{da.passwords.menuItem}</Link>
          </li>
          <li>
            <button type="button" onClick={() => void handleLogout()}>
              {da.nav.logout}
            </button>
          </li>
          <li>
            <button type="button" onClick={handleLogoutEverywhere}>
              {da.nav.logoutEverywhere}
            </button>
          </li>
        </ul>
      </div>
    </div>
  )
}
