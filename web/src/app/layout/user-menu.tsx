import { da } from '@bosted/domain/messages/da'
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { paths } from '../../lib/paths.ts'
import { UserAvatar } from './user-avatar.tsx'

const menuItems = (menu: HTMLElement | null) =>
  Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])

type Props = {
  name: string
  /** The signed-in user's picture, shown instead of their initial. */
  avatarUrl?: string | null
  isAdmin: boolean
  onLogout: () => Promise<void>
  onLogoutEverywhere: () => void
}

/**
 * The user menu (WAI-ARIA menu button): Enter, Space or ArrowDown opens it on the first item,
 * ArrowUp on the last; arrows, Home and End move; Escape closes and returns focus to the button.
 */
export function UserMenu({ name, avatarUrl = null, isAdmin, onLogout, onLogoutEverywhere }: Props) {
  const [isOpen, setIsOpen] = useState(false)
  const [focusIndex, setFocusIndex] = useState(0)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const rootRef = useRef<HTMLDivElement>(null)
  const menuId = useId()
  const navigate = useNavigate()

  const items = () => menuItems(menuRef.current)
  const open = (index: number) => {
    setFocusIndex(index)
    setIsOpen(true)
  }
  const close = (returnFocus: boolean) => {
    setIsOpen(false)
    if (returnFocus) buttonRef.current?.focus()
  }

  useEffect(() => {
    if (!isOpen) return
    const all = menuItems(menuRef.current)
    all[(focusIndex + all.length) % all.length]?.focus()
  }, [isOpen, focusIndex])

  useEffect(() => {
    if (!isOpen) return
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setIsOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [isOpen])

  const handleButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      open(0)
    } else if (event.key === 'ArrowUp') {
      event.preventDefault()
      open(-1)
    }
  }
  const handleMenuKeyDown = (event: KeyboardEvent) => {
    const count = items().length
    const current = items().indexOf(document.activeElement as HTMLElement)
    const moves: Record<string, number> = {
      ArrowDown: (current + 1) % count,
      ArrowUp: (current - 1 + count) % count,
      Home: 0,
      End: count - 1,
    }
    const next = moves[event.key]
    if (next !== undefined) {
      event.preventDefault()
      setFocusIndex(next)
      items()[next]?.focus()
    } else if (event.key === 'Escape') {
      event.preventDefault()
      close(true)
    } else if (event.key === 'Tab') {
      setIsOpen(false)
    }
  }
  const choose = (path: string) => (event: React.MouseEvent) => {
    event.preventDefault()
    close(false)
    navigate(path)
  }
  const handleLogout = async () => {
    close(true)
    await onLogout()
  }
  const handleLogoutEverywhere = () => {
    close(true)
    onLogoutEverywhere()
  }

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="user-menu__button"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={menuId}
        onClick={() => (isOpen ? close(false) : open(0))}
        onKeyDown={handleButtonKeyDown}
      >
        <UserAvatar name={name} url={avatarUrl} />
        <span className="user-menu__name">{name}</span>
      </button>
      <div
        ref={menuRef}
        id={menuId}
        role="menu"
        aria-label={da.shell.userMenu(name)}
        className="user-menu__list"
        hidden={!isOpen}
        onKeyDown={handleMenuKeyDown}
      >
        <Link role="menuitem" tabIndex={-1} to={paths.settings.persons} onClick={choose(paths.settings.persons)}>
          {da.nav.settings}
        </Link>
        {isAdmin && (
          <Link role="menuitem" tabIndex={-1} to={paths.admin.index} onClick={choose(paths.admin.index)}>
            {da.nav.admin}
          </Link>
        )}
        <Link role="menuitem" tabIndex={-1} to={paths.password} onClick={choose(paths.password)}>
          {da.passwords.menuItem}
        </Link>
        <button role="menuitem" tabIndex={-1} type="button" onClick={() => void handleLogout()}>
          {da.nav.logout}
        </button>
        <button role="menuitem" tabIndex={-1} type="button" onClick={handleLogoutEverywhere}>
          {da.nav.logoutEverywhere}
        </button>
      </div>
    </div>
  )
}
