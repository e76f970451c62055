import { da } from '@bosted/domain/messages/da'
import { useEffect, useState } from 'react'
import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router-dom'
import { browserReloadDeps, isChunkLoadError, reloadOnceAfterChunkError } from '../../lib/chunk-reload.ts'
import { paths } from '../../lib/paths.ts'
import { RouteLoading } from './route-loading.tsx'

const reloading = new WeakMap<object, boolean>()

/** Decided once per error (render may run twice): reload after a failed chunk, within the guard. */
function isReloadingFor(error: unknown): boolean {
  if (!isChunkLoadError(error)) return false
  const key = error as object
  if (!reloading.has(key)) reloading.set(key, reloadOnceAfterChunkError(browserReloadDeps()))
  return reloading.get(key) === true
}

/**
 * The error boundary of every route: 'Page Not Found' for a 404 (with 'Page Not Found: {path}'),
 * 'Internal Server Error' for anything else. The error itself is logged, never shown: no stack
 * trace reaches the user. A page whose code failed to load reloads the app once instead.
 */
export function RouteError() {
  return <ErrorPage error={useRouteError()} />
}

/**
 * The error page for a given error (also used for a route whose code failed to load). A page whose
 * code could not be fetched because the tablet is offline (before the app shell's worker kept it)
 * says so, and is loaded again once the tablet is online.
 */
export function ErrorPage({ error }: { error: unknown }) {
  const [isOfflineCode] = useState(() => isChunkLoadError(error) && !navigator.onLine)
  return isOfflineCode ? <NotFetchedOffline /> : <FailurePage error={error} />
}

function NotFetchedOffline() {
  useEffect(() => {
    const reload = () => window.location.reload()
    window.addEventListener('online', reload)
    return () => window.removeEventListener('online', reload)
  }, [])
  return (
    <section className="error-page" aria-labelledby="error-title">
      <h1 id="error-title">{da.errors.offlineTitle}</h1>
      <p>{da.shell.offlineNotRead}</p>
    </section>
  )
}

function FailurePage({ error }: { error: unknown }) {
  const { pathname } = useLocation()
  const isReloading = isReloadingFor(error)
  const isNotFound = isRouteErrorResponse(error) && error.status === 404

  useEffect(() => {
    if (!isNotFound && !isReloading) console.error(error)
  }, [error, isNotFound, isReloading])

  if (isReloading) return <RouteLoading />
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__status" aria-hidden="true">
        {isNotFound ? 404 : 500}
      </p>
      <h1 id="error-title">{isNotFound ? da.errors.notFoundTitle : da.errors.internal}</h1>
      <p>
        {isNotFound
          ? typeof error.data === 'string'
            ? error.data
            : da.errors.notFound(pathname)
          : da.errors.internalHint}
      </p>
      {isNotFound && <p>{da.errors.notFoundHint}</p>}
      <p>
        <Link to={paths.daily}>{da.errors.backHome}</Link>
      </p>
    </section>
  )
}
