import { da } from '@bosted/domain/messages/da'
import { Link } from 'react-router-dom'
import { useIsScrolled } from './header.tsx'
import { useKeepFocusedFieldVisible } from './use-keep-focused-field-visible.ts'

type Props = { name: string; onLogout: () => Promise<void> }

/**
 * A person's (borger's) header: no links they cannot use, only their name and "Log ud", large enough
 * to hit with a thumb.
 */
export function PersonHeader({ name, onLogout }: Props) {
  const isScrolled = useIsScrolled()
  useKeepFocusedFieldVisible()
  return (
    <header className="header header--person" data-scrolled={isScrolled}>
      <div className="header__panel" data-visible={isScrolled} aria-hidden="true" />
      <div className="header__bar">
        <Link to="/me" className="header__logo" aria-label={da.me.home}>
          <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
            <path d="M16 3 3 14h4v14h7v-8h4v8h7V14h4z" fill="currentColor" />
          </svg>
          <span className="header__wordmark" aria-hidden="true">
            {da.shell.appName}
          </span>
        </Link>
        <div className="header__end">
          <span className="person-header__name">{name}</span>
          <button
            type="button"
            className="button button--secondary person-header__logout"
            onClick={() => void onLogout()}
          >
            {da.nav.logout}
          </button>
        </div>
      </div>
    </header>
  )
}
