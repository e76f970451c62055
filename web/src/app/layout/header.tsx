import { HEADER_SHADOW_SCROLL_PX } from '@bosted/domain/constants'
import { da } from '@bosted/domain/messages/da'
import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import type { LocationSummary } from '../../features/locations/locations-store.ts'
import { paths } from '../../lib/paths.ts'
import { CompactMenu } from './compact-menu.tsx'
import { LocationSwitcher } from './location-switcher.tsx'
import { PrefetchLink } from './prefetch-link.tsx'
import { useKeepFocusedFieldVisible } from './use-keep-focused-field-visible.ts'
import { COMPACT_HEADER_QUERY, useMediaQuery } from './use-media-query.ts'
import { UserMenu } from './user-menu.tsx'

type Props = {
  name: string
  avatarUrl?: string | null
  isAdmin: boolean
  locations: readonly LocationSummary[]
  activeLocationId: string | null
  onSelectLocation: (id: string) => void
  onLogout: () => Promise<void>
  /** "Log ud på alle enheder": the shell asks first (a confirmation), then ends every session. */
  onLogoutEverywhere: () => void
}

const NAV = [
  { to: paths.daily, label: da.nav.daily },
  { to: paths.notes, label: da.nav.notes },
  { to: paths.statistics, label: da.nav.statistics },
] as const

/** The logo link to a user's home page (/daily for staff, /me for a person). */
export function HomeLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="header__logo" aria-label={label}>
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
        <path d="M16 3 3 14h4v14h7v-8h4v8h7V14h4z" fill="currentColor" />
      </svg>
      <span className="header__wordmark" aria-hidden="true">
        {da.shell.appName}
      </span>
    </Link>
  )
}

/**
 * True once the page is scrolled more than 48 px (REQ-HEADER-3): the background panel slides in. The
 * position is read as the header renders and on every scroll after it, not again as it mounts: a
 * read of `scrollY` there forces a layout of the page just committed, amid the page's own effects.
 * Without it a returning /daily's main thread did about 0.12 s less work on the tablet profile (issue
 * 34, web/BENCHMARKS.md; the browser's layout time itself did not differ).
 */
export function useIsScrolled(threshold: number = HEADER_SHADOW_SCROLL_PX): boolean {
  const [isScrolled, setIsScrolled] = useState(() => window.scrollY > threshold)
  useEffect(() => {
    const update = () => setIsScrolled(window.scrollY > threshold)
    window.addEventListener('scroll', update, { passive: true })
    return () => window.removeEventListener('scroll', update)
  }, [threshold])
  return isScrolled
}

function MainNav() {
  return (
    <nav className="header__nav" aria-label={da.shell.mainNav}>
      <ul>
        {NAV.map((item) => (
          <li key={item.to}>
            <PrefetchLink to={item.to}>{item.label}</PrefetchLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/**
 * The sticky top bar of REQ-HEADER-1. On narrow screens (tablet, phone) the nav links and the user
 * menu's entries move into one menu button; the active location stays in the bar.
 */
export function Header({
  name,
  avatarUrl = null,
  isAdmin,
  locations,
  activeLocationId,
  onSelectLocation,
  onLogout,
  onLogoutEverywhere,
}: Props) {
  const isScrolled = useIsScrolled()
  const isCompact = useMediaQuery(COMPACT_HEADER_QUERY)
  // The header is on every signed-in page, so every form there gets this.
  useKeepFocusedFieldVisible()
  return (
    <header className="header" data-scrolled={isScrolled} data-compact={isCompact}>
      <div className="header__panel" data-testid="header-panel" data-visible={isScrolled} aria-hidden="true" />
      <div className="header__bar">
        <HomeLink to={paths.daily} label={da.shell.home} />
        {!isCompact && <MainNav />}
        <div className="header__end">
          <LocationSwitcher locations={locations} activeId={activeLocationId} onSelect={onSelectLocation} />
          {isCompact ? (
            <CompactMenu
              name={name}
              avatarUrl={avatarUrl}
              isAdmin={isAdmin}
              onLogout={onLogout}
              onLogoutEverywhere={onLogoutEverywhere}
            >
              <MainNav />
            </CompactMenu>
          ) : (
            <UserMenu
              name={name}
              avatarUrl={avatarUrl}
              isAdmin={isAdmin}
              onLogout={onLogout}
              onLogoutEverywhere={onLogoutEverywhere}
            />
          )}
        </div>
      </div>
    </header>
  )
}
