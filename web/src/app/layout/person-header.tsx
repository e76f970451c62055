import { da } from '@bosted/domain/messages/da'
import { paths } from '../../lib/paths.ts'
import { HomeLink, useIsScrolled } from './header.tsx'
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
        <HomeLink to={paths.me} label={da.me.home} />
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
