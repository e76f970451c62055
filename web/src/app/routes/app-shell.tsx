import { da } from '@bosted/domain/messages/da'
import { formatDanishDate, subscriptionStatus } from '@bosted/domain/subscription-status'
import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { subscribeKey } from 'valtio/utils'
import { OfflineBanner } from '../../features/backend-status/components/offline-banner.tsx'
import { StorageFullBanner } from '../../features/backend-status/components/storage-full-banner.tsx'
import { type LocationSummary, selectLocation } from '../../features/locations/locations-store.ts'
import { useActiveLocation } from '../../features/locations/use-active-location.ts'
import { ConfirmDialog } from '../../features/registrations/components/confirm-dialog.tsx'
import { logout, logoutEverywhere } from '../../features/session/api/logout.ts'
import { fullName, isAdmin, session } from '../../features/session/session-store.ts'
import { paths } from '../../lib/paths.ts'
import { QueryProvider } from '../../lib/query-provider.tsx'
import { reportError } from '../../lib/report-error.ts'
import { writesDelivered } from '../../lib/sign-out-writes.ts'
import { showError, useToasterOnceQuiet } from '../../lib/toast.ts'
import { useKeptQueries } from '../../lib/use-kept-queries.ts'
import { Header } from '../layout/header.tsx'
import { PageTransition } from '../layout/page-transition.tsx'
import { PersonHeader } from '../layout/person-header.tsx'
import { RouteLoading } from '../layout/route-loading.tsx'
import { endSession } from '../session.ts'

// However the session ends (sign-out, expiry, revocation), no care data stays in the cache.
const onSessionEnd = (clear: () => void) =>
  subscribeKey(session, 'user', (next) => {
    if (next === null) clear()
  })

/** The frame of every signed-in page: skip link, header, and the page with its transition. */
export function Component() {
  return (
    <QueryProvider onSessionEnd={onSessionEnd}>
      <Shell />
    </QueryProvider>
  )
}

function Shell() {
  const { user } = useSnapshot(session)
  const { list, location } = useActiveLocation(user?.locations ?? [])
  useKeptQueries(user?.id ?? null)
  useToasterOnceQuiet()
  const navigate = useNavigate()
  const [isConfirmingEverywhere, setIsConfirmingEverywhere] = useState(false)
  if (user === null) return <RouteLoading />

  const signOutWith = async (end: () => Promise<void>) => {
    // The device's cache is cleared at sign-out: never while it holds what has not reached the backend.
    if (!(await writesDelivered().catch(() => true))) {
      showError(da.shell.logoutPending)
      return
    }
    try {
      await end()
    } catch (error) {
      reportError('logout failed')(error)
      showError(da.errors.logoutFailed)
      return
    }
    endSession()
    await navigate(paths.login, { replace: true })
  }
  const handleLogout = () => signOutWith(logout)
  const handleLogoutEverywhere = async () => {
    setIsConfirmingEverywhere(false)
    await signOutWith(logoutEverywhere)
  }

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {da.shell.skipToContent}
      </a>
      {user.kind === 'person' ? (
        <PersonHeader name={fullName(user)} onLogout={handleLogout} />
      ) : (
        <Header
          name={fullName(user)}
          avatarUrl={user.avatarUrl ?? null}
          isAdmin={isAdmin(user)}
          locations={list}
          activeLocationId={location?.id ?? null}
          onSelectLocation={(id) =>
            selectLocation(
              id,
              list.map((candidate) => candidate.id),
            )
          }
          onLogout={handleLogout}
          onLogoutEverywhere={() => setIsConfirmingEverywhere(true)}
        />
      )}
      <ConfirmDialog
        isOpen={isConfirmingEverywhere}
        message={da.nav.logoutEverywhereConfirm}
        confirmLabel={da.nav.logoutEverywhere}
        onConfirm={() => void handleLogoutEverywhere()}
        onClose={() => setIsConfirmingEverywhere(false)}
      />
      <main id="main" className="shell__main" tabIndex={-1}>
        <OfflineBanner />
        <StorageFullBanner />
        {user.kind !== 'person' && <ExpiredBanner location={location} />}
        <PageTransition />
      </main>
    </div>
  )
}

/** An expired subscription is said to the active location's staff; it never blocks care records. */
function ExpiredBanner({ location }: { location: LocationSummary | null }) {
  if (location === null) return null
  const status = subscriptionStatus(location.subscription, new Date())
  if (status.kind !== 'expired') return null
  return (
    <p className="banner banner--warning" role="status">
      {da.admin.expiredBanner(location.name, formatDanishDate(status.validUntil))}
    </p>
  )
}
